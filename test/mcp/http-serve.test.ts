import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cliHome, runCli } from '../helpers/cli.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const KEY = `bk_${randomBytes(24).toString('hex')}`;

const POLICY = `actors:
  - match: { mcpKey: serve-test }
    roles: [viewer]
mcpKeys:
  - { name: serve-test, sha256: ${createHash('sha256').update(KEY).digest('hex')} }
rules:
  - readOnly: true
    allow: [viewer]
`;

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

const homes: ReturnType<typeof cliHome>[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const home of homes.splice(0)) home.cleanup();
});

/** Runs the built `bankops serve` and waits until it says where it listens. */
async function serve(args: string[], policy?: string): Promise<Served> {
  const home = cliHome();
  homes.push(home);
  const env: Record<string, string> = { ...home.env };
  if (policy !== undefined) {
    const { writeFileSync } = await import('node:fs');
    env.BANKOPS_POLICY = `${home.dbPath}.policy.yaml`;
    writeFileSync(env.BANKOPS_POLICY, policy);
  }
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BANKOPS_')));
  // MCP is what is tested here: no local Slack workspace beside it (test/slack/serve.test.ts has it).
  const child = spawn(process.execPath, [CLI, 'serve', '--no-try', ...args], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /MCP over HTTP on (http:\/\/\S+\/mcp)[\s\S]*Ctrl-C to stop/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  // stdout is the protocol's on stdio; an HTTP server has no business writing there.
  expect(stdout).toBe('');
  return { child, url, stderr: () => stderr };
}

describe('bankops serve', () => {
  it('serves MCP over HTTP with the policy’s keys, and stops cleanly on SIGTERM', async () => {
    const served = await serve(['--port', '0', '--read-only'], POLICY);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(served.stderr()).toContain('1 MCP key');
    expect(served.stderr()).toContain('read-only');

    const client = new Client({ name: 'serve-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);

    // The client script docs/mcp-http.md gives for a shell on Node 20: a call, and a wrong key.
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'mcp-call.mjs');
    const run = (key: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [script, served.url, 'get_balances'],
          { env: { ...process.env, BANKOPS_MCP_KEY: key } },
          (error, stdout, stderr) =>
            resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
        );
      });
    const called = await run(KEY);
    expect(called.code).toBe(0);
    expect(JSON.parse(called.stdout).balances.length).toBeGreaterThan(0);
    const wrong = await run('wrong-key');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      `${served.url} refused the key (401): the policy lists no key with this digest (docs/mcp-http.md, "Keys and the policy")\n`,
    );

    const exited = once(served.child, 'exit');
    served.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(served.stderr()).not.toContain(KEY);
    await client.close();
  });

  it('revokes a key whose mcpKeys line is deleted from the watched file, and counts the tools it offers', async () => {
    const served = await serve(['--port', '0', '--toolsets', 'banking'], POLICY);
    // The banking toolset (15, the three balance alert tools and the payee directory's two) and
    // the two approval tools, as tools/list will show.
    expect(served.stderr()).toContain('(22 tools)');
    const headers = {
      Authorization: `Bearer ${KEY}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect((await fetch(served.url, { method: 'POST', headers, body: initialize })).status).toBe(200);
    const { writeFileSync } = await import('node:fs');
    const policyFile = `${homes.at(-1)!.dbPath}.policy.yaml`;
    writeFileSync(policyFile, POLICY.replace(/^mcpKeys:\n.*\n/m, 'mcpKeys: []\n'));
    const deadline = Date.now() + 10_000;
    while (!served.stderr().includes('MCP keys it does not list') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(served.stderr()).toContain('policy reloaded');
    expect(served.stderr()).toMatch(/MCP keys it does not list.*serve-test/);
    expect((await fetch(served.url, { method: 'POST', headers, body: initialize })).status).toBe(401);
    const exited = once(served.child, 'exit');
    served.child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  });

  it('warns that no client can connect when the policy lists no MCP key', async () => {
    const served = await serve(['--port', '0']);
    expect(served.stderr()).toContain('0 MCP keys');
    expect(served.stderr()).toMatch(/no client can connect.*docs\/mcp-http\.md/);
    // What npm start says next: the state file by its name, the key file and what it is, the CLI.
    const said = served.stderr().replace(/\n {4}/g, ' ');
    expect(said).toMatch(/its state in \S+bankops\.sandbox\.db/);
    expect(said).toMatch(/\S+bankops\.key: the key that fingerprints secret inputs/);
    // Never `npx bankops`: outside the project npx would fetch a registry package of that name.
    expect(said).toMatch(/next, in another terminal: (bankops|node \S*cli\.js) call get_balances/);
    expect(said).not.toContain('npx');
    for (const line of served.stderr().split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    const res = await fetch(served.url, { method: 'POST', headers: { Authorization: 'Bearer anything' } });
    expect(res.status).toBe(401);
    const exited = once(served.child, 'exit');
    served.child.kill('SIGINT');
    expect((await exited)[0]).toBe(0);
  });

  it('refuses a non-loopback host without --allow-remote, and documents itself', async () => {
    const home = cliHome();
    homes.push(home);
    const remote = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], home.env);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('not a loopback address');
    const help = await runCli(['help', 'serve'], home.env);
    expect(help.stdout).toContain('Usage: bankops serve');
    expect(help.stdout).toContain('--read-only');
  });
});
