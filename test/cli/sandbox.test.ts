import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/approvals.js';
import { CLI, cliEnv, cliHome, runCli, runInTerminal } from '../helpers/cli.js';

/**
 * One sandbox: what `npm start` runs serves the embedded sandbox's state file and says so beside
 * it, so `bankops call` uses that very sandbox; without it, every command uses the same state file.
 * `bankops sandbox reset|clock|faults|rates` drive whichever is in use.
 */

let home: ReturnType<typeof cliHome>;
beforeAll(() => {
  home = cliHome();
});
afterAll(() => home.cleanup());

const registration = (): string => join(home.dir, 'bankops.sandbox.json');
const usd = (res: { json: { output: { balances: { currency: string; availableBalance: number }[] } } }) =>
  res.json.output.balances.find((b) => b.currency === 'USD')?.availableBalance;

/** What `npm start` runs (package.json), on a free port, with this test's database. */
async function npmStart(): Promise<{ child: ChildProcess; url: string; stop: () => Promise<void> }> {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [node, script, ...args] = pkg.scripts.start.split(' ');
  expect([node, script]).toEqual(['node', 'dist/cli.js']);
  const child = spawn(process.execPath, [CLI, ...args, '--port', '0'], {
    env: cliEnv(home.env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await until(() => existsSync(registration()) || child.exitCode !== null, 'the sandbox to register');
  if (child.exitCode !== null) throw new Error(`npm start exited: ${stderr}`);
  const { url, pid } = JSON.parse(readFileSync(registration(), 'utf8')) as { url: string; pid: number };
  expect(pid).toBe(child.pid);
  return {
    child,
    url,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const stats = async (url: string): Promise<Record<string, number>> =>
  ((await (await fetch(`${url}/_sandbox/stats`)).json()) as { requests: Record<string, number> }).requests;

describe('one sandbox', () => {
  let server: Awaited<ReturnType<typeof npmStart>> | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('bankops call uses the sandbox npm start serves; its URL alone reaches it; a second one is refused', async () => {
    server = await npmStart();
    const before = (await stats(server.url))['accounts.balances'] ?? 0;
    const first = await runCli(['call', 'get_balances'], home.env);
    expect(usd(first)).toBe(250000);
    expect((await stats(server.url))['accounts.balances']).toBe(before + 1);
    // A second sandbox over the same state is refused, naming the one that serves it.
    const second = await runCli(['sandbox', '--port', '0'], home.env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `a sandbox already serves ${join(home.dir, 'bankops.sandbox.db')} at ${server.url}`,
    );
    // Pointing at it needs only its URL: the credentials default to the sandbox's.
    const direct = await runCli(['call', 'get_balances'], {
      BANKOPS_DB: join(home.dir, 'other.db'),
      BANKOPS_BASE_URL: server.url,
    });
    expect(direct.code).toBe(0);
  });

  it('money moved through the served sandbox is in the state the next command starts from once it stops', async () => {
    if (server === undefined) throw new Error('the previous test starts the sandbox');
    const conversion = await runCli(
      [
        'call',
        'create_conversion',
        'sourceAssetCode=USD',
        'targetAssetCode=EUR',
        'amount=1000',
        'side=SOURCE',
      ],
      home.env,
    );
    const approved = await runCli(
      ['approvals', 'approve', conversion.json.approvalId, '--as', 'bob'],
      home.env,
    );
    expect(approved.json.status).toBe('executed');
    await server.stop();
    server = undefined;
    expect(existsSync(registration())).toBe(false);
    const after = await runCli(['call', 'get_balances'], home.env);
    expect(usd(after)).toBe(249000);
  });

  it('refuses a loopback URL that is not a bankops sandbox without credentials, naming them', async () => {
    const res = await runCli(['call', 'get_balances'], {
      ...home.env,
      BANKOPS_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'BANKOPS_API_KEY, BANKOPS_PRODUCT_ID, BANKOPS_USER_ID, BANKOPS_COMPANY_ID: required',
    );
  });
});

describe('bankops sandbox reset | clock | faults | rates', () => {
  it('moves the clock and the rates of the embedded state', async () => {
    const clock = await runCli(['sandbox', 'clock', '+90s'], home.env);
    expect(clock.stdout).toMatch(
      /^Sandbox clock: \S+Z \(\+(9\d|1\d\d) s from real time\)\n {2}Sandbox: the embedded sandbox, state in \S+bankops\.sandbox\.db\.\n$/,
    );
    const rates = await runCli(['sandbox', 'rates', 'EUR=1.2'], home.env);
    expect(rates.stdout).toContain('EUR 1.2');
    // Without arguments, the rates in force, as `clock` shows the clock.
    const shown = await runCli(['sandbox', 'rates'], home.env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Mid-market rates \(USD per unit\): USD 1, EUR 1\.2, GBP /);
    const quote = await runCli(
      ['call', 'quote_conversion', 'sourceAssetCode=EUR', 'targetAssetCode=USD', 'amount=100', 'side=SOURCE'],
      home.env,
    );
    expect(quote.json.output.rate).toBeCloseTo(1.2 * 0.997, 4);
  });

  it('injects, lists and clears faults, resets the seed, and refuses a clock step it cannot read', async () => {
    const added = await runCli(
      ['sandbox', 'faults', '/svc/banking/*', 'status=503', 'times=2', '--json'],
      home.env,
    );
    expect(added.json).toMatchObject({
      id: expect.any(Number),
      fault: { path: '/svc/banking/*', status: 503, times: 2 },
    });
    const cleared = await runCli(['sandbox', 'faults', 'clear'], home.env);
    expect(cleared.stdout).toMatch(/^No faults injected\./);

    await runCli(['sandbox', 'reset'], home.env);
    const reset = await runCli(['call', 'get_balances'], home.env);
    expect(usd(reset)).toBe(250000);
    const bad = await runCli(['sandbox', 'clock', 'tomorrow'], home.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('clock takes a step forward like +90s');
  });
});

describe('progress', () => {
  it('shows a slow call and its re-send on the terminal’s stderr, never on stdout', async () => {
    // The first balances request is slow and then fails with 503; a read is sent again, and answered.
    const path = '/svc/banking/api/v1/accounts/balances';
    await runCli(['sandbox', 'faults', path, 'latencyMs=1200', 'status=503', 'times=1'], home.env);
    const out = join(home.dir, 'out.json');
    const shown = await runInTerminal(`bankops call get_balances > ${out}`, home.env);
    expect(shown.code).toBe(0);
    expect(shown.plain).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] get_balances: waiting for the service \(1\.\d s\)/);
    expect(shown.plain).toMatch(
      /accounts\.balances: HTTP 503 from the service after 1\.\d s \(attempt 1, request id [\w-]+\); it may be sent again with the same request id/,
    );
    expect(JSON.parse(readFileSync(out, 'utf8')).status).toBe('ok');

    // stderr not a terminal: nothing but the result.
    await runCli(['sandbox', 'faults', path, 'latencyMs=1200', 'times=1'], home.env);
    const piped = await runCli(['call', 'get_balances'], home.env);
    expect(piped.stderr).toBe('');
    expect(piped.json.status).toBe('ok');
  });
});
