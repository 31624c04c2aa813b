import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS, startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { cliHome, payoutCall, runCliHere } from '../helpers/cli.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../helpers/postgres.js';
import { serviceEnv } from '../helpers/sandbox.js';
import { TcpGate } from '../helpers/tcp-gate.js';

/**
 * `bankops approvals approve` whose database goes away while the payout is at the service: the
 * command says the database's line and that the vote may have counted and the payout gone out, and
 * how to learn what happened. A real PostgreSQL server behind a loopback gate, the sandbox in this
 * process shutting the gate as the payout arrives.
 */

const available = await postgresAvailable();

describe.skipIf(!available)('a vote that loses the database on its way', () => {
  const database = useTestDatabase();
  let home: ReturnType<typeof cliHome>;
  let gate: TcpGate;
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let cutOnPayout = false;
  let payouts = 0;

  beforeAll(async () => {
    home = cliHome();
    gate = await TcpGate.open({ host: '127.0.0.1', port: 5432 });
    sandbox = await startSandbox(0, {
      credentials: { ...SANDBOX_DEFAULTS },
      beforeAnswer: ({ operation }) => {
        if (operation !== 'payouts.create') return undefined;
        payouts += 1;
        return cutOnPayout ? gate.shut() : undefined;
      },
    });
    const url = new URL(database.url());
    url.port = String(gate.port);
    env = {
      ...home.env,
      ...serviceEnv(sandbox.url, sandbox.credentials),
      BANKOPS_DATABASE_URL: url.toString(),
      BANKOPS_FINGERPRINT_KEY_FILE: writeFingerprintKey(home.dir),
    };
  });
  afterAll(async () => {
    await gate.shut();
    await sandbox.close();
    home.cleanup();
  });

  it('says the vote may have counted and the payout may have gone out, and how to look', async () => {
    const requested = await runCliHere([...payoutCall(125), '--json'], env);
    expect(requested.json?.status, requested.stderr).toBe('pending_approval');
    const id = requested.json.approvalId as string;

    cutOnPayout = true;
    const voted = await runCliHere(['approvals', 'approve', id, '--as', 'bob'], env);
    expect(voted.code).toBe(1);
    expect(payouts).toBe(1);
    expect(voted.stderr).toContain(
      `bankops cannot reach its database at 127.0.0.1:${gate.port}/${database.name} (connection refused); the vote may have counted and the operation may have run: \`bankops approvals show ${id}\` once the database is back says what happened\n`,
    );

    // Back: the approval is there to look at, and its payout went to the service once.
    await gate.open();
    const shown = await runCliHere(['approvals', 'show', id, '--json'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json).toMatchObject({ id, tool: 'create_payout' });
    expect(payouts).toBe(1);
  });
});
