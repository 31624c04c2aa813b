import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, cliHome, runCli } from '../helpers/cli.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

/**
 * A one-shot command on the embedded sandbox has the sandbox answer in its own process: no
 * listening socket, no HTTP client (undici, whose parser is WebAssembly) — and the state file still
 * carries every change to the next command, two commands at once included.
 */

const PROBE = join(import.meta.dirname, '..', 'fixtures', 'transport-probe.mjs');

let home: ReturnType<typeof cliHome>;
beforeAll(() => {
  home = cliHome();
});
afterAll(() => home.cleanup());

interface Probed {
  code: number;
  stdout: string;
  seen: { listens: number; wasmModules: number };
}

/** Runs the built CLI with the probe preloaded: what it printed, and what the probe saw. */
function probed(args: readonly string[], env: Record<string, string>): Promise<Probed> {
  const file = join(home.dir, `probe-${Math.random().toString(16).slice(2)}.json`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', PROBE, CLI, ...args],
      { env: cliEnv({ ...env, BANKOPS_TEST_PROBE_FILE: file }), timeout: 30_000 },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, seen: JSON.parse(readFileSync(file, 'utf8')) as Probed['seen'] });
      },
    );
  });
}

describe('the embedded sandbox of a one-shot command', () => {
  let served: RunningSandbox | undefined;
  afterAll(async () => {
    await served?.close();
  });

  it('answers in the process: no listening socket, no HTTP client loaded', async () => {
    const read = await probed(['call', 'get_balances', '--json'], home.env);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ status: 'ok', output: { balances: expect.any(Array) } });
    expect(read.seen).toEqual({ listens: 0, wasmModules: 0 });

    // The probe sees an HTTP client when there is one: the same read from a sandbox at a URL.
    served = await startTestSandbox();
    const overHttp = await probed(['call', 'get_balances', '--json'], {
      ...home.env,
      BANKOPS_BASE_URL: served.url,
    });
    expect(overHttp.code).toBe(0);
    expect(overHttp.seen.listens).toBe(0);
    expect(overHttp.seen.wasmModules).toBeGreaterThan(0);
  });

  it('is served over HTTP by bankops sandbox, which other processes connect to', async () => {
    const file = join(home.dir, 'probe-sandbox.json');
    const child = spawn(process.execPath, ['--import', PROBE, CLI, 'sandbox', '--port', '0'], {
      env: cliEnv({ ...home.env, BANKOPS_TEST_PROBE_FILE: file }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('listening on')) resolve();
      });
      child.once('exit', () => reject(new Error(`bankops sandbox exited: ${stderr}`)));
    });
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ listens: 1 });
  });

  it('leaves its changes in the state file for the next command, two commands at once included', async () => {
    const subscribe = (event: string) =>
      runCli(
        [
          'call',
          'create_subscription',
          `event_name=${event}`,
          'subscription_type=n',
          'sender_email=ops@demo.bankops.test',
          '--json',
        ],
        home.env,
      );
    const events = async (): Promise<string[]> => {
      const listed = await runCli(['call', 'list_subscriptions', '--json'], home.env);
      expect(listed.code).toBe(0);
      return (listed.json.output.subscriptions as { event_name: string }[]).map((s) => s.event_name);
    };

    expect((await subscribe('card_create')).code).toBe(0);
    expect(await events()).toContain('card_create');

    // Eight at once: without one writer at a time, some would save over another's change.
    const atOnce = [
      'card_activate',
      'card_status',
      'card_configuration',
      'card_enroll3DS',
      'card_update3DSmethod',
      'cardholder_create',
      'cardholder_update',
      'wallet_create',
    ];
    const results = await Promise.all(atOnce.map(subscribe));
    expect(results.map((r) => r.code)).toEqual(atOnce.map(() => 0));
    expect(await events()).toEqual(expect.arrayContaining(['card_create', ...atOnce]));
  });
});
