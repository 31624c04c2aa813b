import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, runCli } from '../helpers/cli.js';
import { SlackApiStandIn } from '../helpers/slack-api.js';
import { BOT_TOKEN, SIGNING_SECRET, slackPolicyYaml, USERS } from '../helpers/slack-app.js';
import { SlackDriver, textOf } from '../helpers/slack-requests.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const homes: ReturnType<typeof cliHome>[] = [];
const children: ChildProcess[] = [];
let api: SlackApiStandIn;

beforeAll(async () => {
  api = await SlackApiStandIn.start({ token: BOT_TOKEN });
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  for (const home of homes.splice(0)) home.cleanup();
  expect(api.problems).toEqual([]);
  await api.close();
});

/** The built `bankops serve` on the embedded sandbox, with `env`; resolves once it says it runs. */
async function serve(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ url: string; dbPath: string; stderr: () => string }> {
  const home = cliHome();
  homes.push(home);
  const { writeFileSync } = await import('node:fs');
  const policy = `${home.dbPath}.policy.yaml`;
  writeFileSync(policy, slackPolicyYaml());
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('BANKOPS_') && !k.startsWith('SLACK_')),
  );
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...clean, ...home.env, BANKOPS_POLICY: policy, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)[\s\S]*Ctrl-C to stop/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { url, dbPath: home.dbPath, stderr: () => stderr };
}

describe('bankops serve: one listener for every front end', () => {
  it('without Slack variables runs the Slack app against the local workspace, named in the banner', async () => {
    const served = await serve({});
    const said = served.stderr().replace(/\n {4}/g, ' ');
    expect(said).toContain(`Slack: a local workspace in the browser at ${served.url}/try/slack`);
    expect(said).not.toContain('Slack is off');
    expect(said).toMatch(/MCP over HTTP on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    // The tools it holds back are counted and said why: those whose input is a secret.
    expect(said).toMatch(/\(\d+ tools, \d+ whose input is a secret only with --secret-inputs\)/);
    expect(said).toMatch(/embedded sandbox of the service on http:\/\/127\.0\.0\.1:\d+/);
    const page = await fetch(`${served.url}/try/slack`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await (await fetch(`${served.url}/healthz`)).json()).toMatchObject({
      status: 'ok',
      slack: 'http',
    });
    // The app's Request URL checks every request, the workspace's included: an unsigned one is refused.
    expect((await fetch(`${served.url}/slack/events`, { method: 'POST', body: 'x' })).status).toBe(401);
    // MCP keeps its own checks on /mcp: no key, 401.
    expect((await fetch(`${served.url}/mcp`, { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it('with --no-try says once that Slack is off and how to turn it on; its routes say so too', async () => {
    const served = await serve({}, ['--no-try']);
    expect(served.stderr().match(/Slack is off/g)).toHaveLength(1);
    expect(served.stderr()).toContain('SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET');
    expect(served.stderr().replace(/\n {4}/g, ' ')).toContain(
      'no local Slack workspace at /try/slack: --no-try',
    );
    expect(await (await fetch(`${served.url}/healthz`)).json()).toMatchObject({ status: 'ok', slack: 'off' });
    expect((await fetch(`${served.url}/try/slack`)).status).toBe(404);
    expect((await fetch(`${served.url}/slack/events`, { method: 'POST', body: 'x' })).status).toBe(404);
    expect((await fetch(`${served.url}/webhooks/service`, { method: 'POST', body: '{}' })).status).toBe(503);
  });

  it('with a bot token and signing secret serves signed Slack requests on /slack/events, against the embedded sandbox', async () => {
    const served = await serve({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: api.url,
    });
    expect(served.stderr()).toMatch(/Slack \(HTTP\) on http:\/\/127\.0\.0\.1:\d+\/slack\/events/);
    // Start-up lines wrap at 100 columns, continued with four spaces.
    const said = served.stderr().replace(/\n {4}/g, ' ');
    expect(said).toContain('set BANKOPS_SLACK_AUDIT_CHANNEL');
    expect(said).toContain('set BANKOPS_SLACK_APPROVALS_CHANNEL');
    const slack = new SlackDriver({
      eventsUrl: `${served.url}/slack/events`,
      signingSecret: SIGNING_SECRET,
      api,
    });
    const { id, response } = await slack.command(USERS.viewer, 'accounts USD');
    expect(response.status).toBe(200);
    const [answer] = await api.answers(id);
    expect(textOf(answer?.body ?? {})).toContain('acc_usd_0001');
    expect(
      (await slack.command(USERS.viewer, 'balances', { secret: 'wrong-secret-000' })).response.status,
    ).toBe(401);
    expect(api.callsOf('auth.test')).toEqual([]);
  });

  it('refuses a half Slack configuration at start, naming the variable', async () => {
    const home = cliHome();
    homes.push(home);
    const half = await runCli(['serve', '--port', '0'], { ...home.env, SLACK_BOT_TOKEN: BOT_TOKEN });
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('SLACK_BOT_TOKEN: set, but neither SLACK_SIGNING_SECRET');
    const url = await runCli(['serve', '--port', '0'], { ...home.env, BANKOPS_PUBLIC_URL: 'not a url' });
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('BANKOPS_PUBLIC_URL');
  });
});
