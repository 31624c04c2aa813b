import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/app/config.js';
import { createRuntime, type Runtime } from '../../../src/app/runtime.js';
import { cliActor } from '../../../src/core/actors.js';
import type { Logger } from '../../../src/core/log.js';
import { verifyAuditLog } from '../../../src/core/store/postgres/audit-verify.js';
import {
  postgresAvailable,
  TEST_SERVER_URL,
  useTestDatabase,
  writeFingerprintKey,
} from '../../helpers/postgres.js';
import { type RunningSandbox, serviceEnv, startTestSandbox } from '../../helpers/sandbox.js';
import { TcpGate } from '../../helpers/tcp-gate.js';

const available = await postgresAvailable();

/** A logger that keeps what it was told. */
function keptLog(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const keep = (level: string) => (message: string) => {
    lines.push({ level, message });
  };
  return { lines, debug: () => undefined, info: keep('info'), warn: keep('warn'), error: keep('error') };
}

/**
 * A runtime on PostgreSQL reached through a port the test shuts and opens again: a read answered
 * while the database is away keeps its audit entry, in order, until the database is back.
 */
describe.skipIf(!available)('audit entries of reads while the database is away', () => {
  const database = useTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'bankops-outage-'));
  let gate: TcpGate;
  let sandbox: RunningSandbox;
  let runtime: Runtime;
  const log = keptLog();
  const operator = cliActor('operator');
  const read = () => runtime.executor.execute({ tool: 'get_balances', input: {}, actor: operator });

  beforeAll(async () => {
    const keyFile = writeFingerprintKey(dir);
    const server = new URL(TEST_SERVER_URL);
    gate = await TcpGate.open({ host: server.hostname, port: Number(server.port || 5432) });
    const url = new URL(database.url());
    url.port = String(gate.port);
    sandbox = await startTestSandbox();
    const c = sandbox.credentials;
    runtime = await createRuntime(
      loadConfig({
        ...serviceEnv(sandbox.url, c),
        BANKOPS_DB: join(dir, 'unused.db'),
        BANKOPS_DATABASE_URL: url.toString(),
        BANKOPS_FINGERPRINT_KEY_FILE: keyFile,
      }),
      { recover: false, log, auditMaxWaiting: 3, client: { maxRetries: 0 } },
    );
  });
  afterAll(async () => {
    await gate?.open().catch(() => undefined);
    await runtime?.close();
    await sandbox?.close();
    await gate?.shut();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a read's entry through the outage, writes it once the database is back, and the chain verifies", async () => {
    expect(await read()).toMatchObject({ status: 'ok' });
    await runtime.audit.flush();
    const before = (await runtime.audit.head()).seq;

    await gate.shut();
    // Reads need no database: they are answered, and their entries wait in order.
    const during = [await read(), await read()];
    expect(during.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(runtime.audit.waiting).toBe(2);
    await expect(runtime.audit.flush()).rejects.toThrow(/cannot reach its database/);
    expect(runtime.audit.waiting).toBe(2);
    // A third fills the queue (3 here); the next read is refused before it runs, said once.
    expect(await read()).toMatchObject({ status: 'ok' });
    const refused = await read();
    expect(refused).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining('cannot write its audit log (3 entries wait') },
    });
    expect(log.lines.filter((l) => l.message.includes('queue is full'))).toHaveLength(1);
    expect(log.lines.filter((l) => l.message.includes('cannot be written now'))).toHaveLength(1);

    await gate.open();
    await runtime.audit.flush();
    expect(runtime.audit.waiting).toBe(0);
    expect(log.lines.at(-1)).toMatchObject({ level: 'info', message: 'audit entries are written again' });
    const entries = await runtime.audit.list({ afterSeq: before });
    expect(entries.map((e) => [e.tool, e.event, e.actor])).toEqual([
      ['get_balances', 'executed', 'cli:operator'],
      ['get_balances', 'executed', 'cli:operator'],
      ['get_balances', 'executed', 'cli:operator'],
    ]);
    // Recorded when the reads happened, in that order, not when the database came back.
    const times = entries.map((e) => e.ts);
    expect([...times].sort()).toEqual(times);
    expect(await verifyAuditLog(database.store().pool)).toMatchObject({ ok: true, headSeq: before + 3 });
    // Reads are taken again.
    expect(await read()).toMatchObject({ status: 'ok' });
  });

  it("refuses a write's entry at once while earlier attempts of reads' entries wait to be looked for", async () => {
    await runtime.audit.flush();
    await gate.shut();
    try {
      // Two failed attempts of reads' entries: two batches that may have committed, looked for in
      // order before anything else is written.
      expect(await read()).toMatchObject({ status: 'ok' });
      await expect(runtime.audit.flush()).rejects.toThrow(/cannot reach its database/);
      expect(await read()).toMatchObject({ status: 'ok' });
      await expect(runtime.audit.flush()).rejects.toThrow(/cannot reach its database/);
      // A write's entry cannot wait for the database to come back: its caller hears it now.
      await expect(
        runtime.audit.append({
          actor: 'cli:operator',
          frontEnd: 'cli',
          tool: 'create_payout',
          input: {},
          decision: 'allow',
          event: 'requested',
          requestIds: ['req-during-outage'],
        }),
      ).rejects.toThrow(/cannot reach its database/);
    } finally {
      await gate.open();
    }
    await runtime.audit.flush();
    expect(runtime.audit.waiting).toBe(0);
    expect(await verifyAuditLog(database.store().pool)).toMatchObject({ ok: true });
  });
});
