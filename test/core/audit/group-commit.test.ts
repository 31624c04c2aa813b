import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../../src/app/runtime.js';
import { cliActor } from '../../../src/core/actors.js';
import { AuditLog } from '../../../src/core/audit/index.js';
import { RELAXED_WINDOW_MS } from '../../../src/core/audit/log.js';
import { openDatabase } from '../../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../../src/core/store/sqlite/storage.js';
import { sampleEntry } from '../../helpers/audit.js';
import { runtimeOptions, testConfig } from '../../helpers/core.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHILD = fileURLToPath(new URL('../../helpers/audit-record-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('group commit', () => {
  it('commits the entries of concurrent writers, durable and not, in one chain that verifies', async () => {
    const db = openDatabase(join(dir, 'group.db'));
    const log = new AuditLog(sqliteStorage(db));
    const entries = await Promise.all(
      Array.from({ length: 64 }, (_, i) => log.record(sampleEntry(i), { durable: i % 2 === 0 })),
    );
    expect(entries.map((e) => e.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 64 }, (_, i) => i + 1),
    );
    expect(await log.verify()).toMatchObject({ ok: true, entries: 64 });
    // A batch of reads committed without an fsync leaves the connection as durable as before.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('keeps read entries whose writer crashed right after they were committed', async () => {
    const file = join(dir, 'crash.db');
    const stdout = await new Promise<string>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', CHILD, file], { cwd: ROOT }, (_error, out) =>
        resolve(out),
      );
    });
    const seqs = JSON.parse(stdout) as number[];
    expect(seqs).toHaveLength(32);
    const db = openDatabase(file);
    const log = new AuditLog(sqliteStorage(db));
    expect(await log.verify()).toMatchObject({ ok: true, entries: 32 });
    expect((await log.list({ limit: 100 })).map((e) => e.requestIds[0])).toEqual(
      Array.from({ length: 32 }, (_, i) => `crash-${i}`),
    );
    db.close();
  });

  it('refuses an invalid entry alone, without holding up the others', async () => {
    const db = openDatabase(join(dir, 'invalid.db'));
    const log = new AuditLog(sqliteStorage(db));
    const results = await Promise.allSettled([
      log.record(sampleEntry(1), { durable: false }),
      log.record({ ...sampleEntry(2), event: 'decided', approvalId: null }, { durable: false }),
      log.record(sampleEntry(3), { durable: false }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
    db.close();
  });
  it('commits a read entry within the window, and before any audit read or write of the same log', async () => {
    const file = join(dir, 'relaxed.db');
    const log = new AuditLog(sqliteStorage(openDatabase(file)));
    const other = new AuditLog(sqliteStorage(openDatabase(file))); // another process's view of the file
    const committed = log.record(sampleEntry(1), { durable: false });
    // Waiting: not yet in the file for another process, but this process's readers see it at once.
    expect((await other.head()).seq).toBe(0);
    expect((await log.head()).seq).toBe(1);
    expect((await committed).seq).toBe(1);
    // Without any reader, the window's timer commits it.
    const started = performance.now();
    const second = await log.record(sampleEntry(2), { durable: false });
    expect(performance.now() - started).toBeLessThan(RELAXED_WINDOW_MS * 20);
    expect(await other.head()).toEqual({ seq: second.seq, hash: second.hash });
    // A write's `append` commits the reads recorded before it first: the chain keeps their order.
    void log.record(sampleEntry(3, { requestIds: ['read-before-write'] }), { durable: false });
    const write = await log.append(sampleEntry(4, { requestIds: ['the-write'] }));
    expect(write.seq).toBe(4);
    expect((await other.list({ limit: 10 })).map((e) => e.requestIds[0])).toEqual([
      'req-1',
      'req-2',
      'read-before-write',
      'the-write',
    ]);
    expect(await other.verify()).toMatchObject({ ok: true, entries: 4 });
  });

  it.each([
    { auditThread: false, writer: 'in the request thread (a short command)' },
    { auditThread: true, writer: 'in a thread of its own (serve)' },
  ])(
    'answers reads before their entries are committed, and commits them all when the runtime closes: writer $writer',
    async ({ auditThread }) => {
      const sandbox = await startTestSandbox();
      const dbPath = join(dir, `runtime-${auditThread}.db`);
      const runtime = await createRuntime(testConfig(sandbox, { dbPath }), {
        ...runtimeOptions(),
        auditThread,
      });
      try {
        for (let i = 0; i < 30; i += 1) {
          const answered = await runtime.executor.execute({
            tool: 'get_balances',
            input: {},
            actor: cliActor('operator'),
          });
          expect(answered.status).toBe('ok');
        }
      } finally {
        await runtime.close();
        await sandbox.close();
      }
      const log = new AuditLog(sqliteStorage(openDatabase(dbPath)));
      const reads = (await log.list({ limit: 100 })).filter((e) => e.tool === 'get_balances');
      expect(reads).toHaveLength(30);
      expect(reads[29]).toMatchObject({ actor: 'cli:operator', event: 'executed', outcome: 'ok' });
      expect(await log.verify()).toMatchObject({ ok: true });
    },
  );
});
