import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AuditLog } from '../../../src/core/audit/index.js';
import { prepareEntry } from '../../../src/core/audit/seal.js';
import { ThreadWriter } from '../../../src/core/audit/thread-writer.js';
import { type AuditWriter, inlineWriter } from '../../../src/core/audit/writer.js';
import type { Storage } from '../../../src/core/store/index.js';
import { migrate } from '../../../src/core/store/postgres/migrate.js';
import { postgresStorage } from '../../../src/core/store/postgres/storage.js';
import { openDatabase } from '../../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../../src/core/store/sqlite/storage.js';
import { sampleEntry } from '../../helpers/audit.js';
import { postgresAvailable, useTestDatabase } from '../../helpers/postgres.js';

const pgAvailable = await postgresAvailable();
const dir = mkdtempSync(join(tmpdir(), 'bankops-writer-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fresh = (name: string): { storage: Storage; file: string } => {
  const file = join(dir, `${name}.db`);
  return { storage: sqliteStorage(openDatabase(file)), file };
};

/** The inline writer, but its first commit is cut off after it went through (a thread that stopped). */
function cutOffOnce(storage: Storage, between?: () => Promise<void>): AuditWriter {
  const inline = inlineWriter(storage);
  let first = true;
  return {
    async commit(batch, options) {
      const committed = await inline.commit(batch, options);
      if (!first) return committed;
      first = false;
      await between?.();
      throw new Error("the audit writer's thread exited (1)");
    },
    close: () => inline.close(),
  };
}

describe('the audit writer under faults', () => {
  it('counts noted entries written by the thread (metrics)', async () => {
    const { storage, file } = fresh('metrics');
    let written = 0;
    const log = new AuditLog(storage, {
      writer: new ThreadWriter({ kind: 'sqlite', file }),
      onWritten: (count) => {
        written += count;
      },
    });
    for (let i = 0; i < 3; i += 1) log.note(sampleEntry(i));
    await log.append(sampleEntry(3));
    await log.flush();
    expect(await log.list({ limit: 10 })).toHaveLength(4);
    expect(written).toBe(4);
    await log.close();
  });

  it('finds a batch cut off on SQLite when another writer appended after it', async () => {
    const { storage } = fresh('unsure-not-head');
    const batch = [1, 2, 3].map((i) => prepareEntry(sampleEntry(i), {}, [], new Date(i).toISOString()));
    const first = await storage.appendAudit(batch, { durable: true });
    // Another writer (this process's `appendIn`, another process) appends after it.
    const other = [prepareEntry(sampleEntry(9), {}, [], new Date(9).toISOString())];
    await storage.appendAudit(other, { durable: true });
    const next = [prepareEntry(sampleEntry(4), {}, [], new Date(4).toISOString())];
    const again = await storage.appendAudit([...batch, ...next], { durable: true, unsure: batch });
    expect(again.of).toBe('unsure');
    expect(again.entries).toEqual(first.entries);
    expect(await new AuditLog(storage).entries()).toHaveLength(4);
  });

  it('writes a read once when its commit was cut off and an approval entry came in between', async () => {
    const { storage } = fresh('cut-off-between');
    const approvals = new AuditLog(storage);
    const log = new AuditLog(storage, {
      writer: cutOffOnce(storage, () =>
        storage.transaction(async (tx) => {
          await approvals.appendIn(tx, sampleEntry(7, { requestIds: ['approval'] }));
        }),
      ),
    });
    const read = log.record(sampleEntry(1, { requestIds: ['read'] }), { durable: false });
    await expect(log.flush()).rejects.toThrow(/exited/);
    await log.flush();
    await read;
    const ids = (await log.entries()).map((e) => e.requestIds[0]);
    expect(ids).toEqual(['read', 'approval']);
    await log.close();
  });

  // A second failed attempt (the new thread cannot start, SQLITE_BUSY, PostgreSQL refusing
  // connections) must not make the group commit forget the first, which did commit.
  it('writes a read once when the attempt after its cut-off commit fails too', async () => {
    await cutOffTwice(fresh('cut-off-twice').storage);
  });
});

/** A commit cut off after it went through, then an attempt that fails before the database. */
async function cutOffTwice(storage: Storage): Promise<void> {
  const inline = inlineWriter(storage);
  let attempt = 0;
  const writer: AuditWriter = {
    async commit(batch, options) {
      attempt += 1;
      if (attempt === 2) throw new Error('SQLITE_BUSY: database is locked');
      const committed = await inline.commit(batch, options);
      if (attempt === 1) throw new Error("the audit writer's thread exited (1)");
      return committed;
    },
    close: () => inline.close(),
  };
  const log = new AuditLog(storage, { writer });
  void log.record(sampleEntry(1, { requestIds: ['read-1'] }), { durable: false });
  await expect(log.flush()).rejects.toThrow(/exited/);
  void log.record(sampleEntry(2, { requestIds: ['read-2'] }), { durable: false });
  await expect(log.flush()).rejects.toThrow(/SQLITE_BUSY/);
  await log.flush();
  expect((await log.entries()).map((e) => e.requestIds[0])).toEqual(['read-1', 'read-2']);
  await log.close();
}

describe.skipIf(!pgAvailable)('the group commit after two failed attempts on PostgreSQL', () => {
  const db = useTestDatabase();
  it('writes a read once when the attempt after its cut-off commit fails too', async () => {
    const store = db.store();
    await migrate(store);
    await cutOffTwice(postgresStorage(store));
  });
});

describe('the audit writer under faults, more', () => {
  it('a flush after a cut-off batch was found committed does not throw the old error', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const { storage } = fresh('stale-failure');
      const log = new AuditLog(storage, { writer: cutOffOnce(storage) });
      void log.record(sampleEntry(1), { durable: false });
      await expect(log.flush()).rejects.toThrow(/exited/);
      // The database answers again: the cut-off batch is found, and the next read is written.
      void log.record(sampleEntry(2), { durable: false });
      await expect(log.flush()).resolves.toBeUndefined();
      expect(await log.entries()).toHaveLength(2);
      await log.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('goes on writing after a batch holding a value the thread cannot take was cut off', async () => {
    const { storage, file } = fresh('uncloneable');
    const threads: Worker[] = [];
    const log = new AuditLog(storage, {
      writer: new ThreadWriter({ kind: 'sqlite', file }, { onThread: (thread) => threads.push(thread) }),
    });
    const reads = [
      log.record(sampleEntry(1, { input: { callback: () => 'no' } }), { durable: false }),
      log.record(sampleEntry(2), { durable: false }),
    ];
    const flushing = log.flush().catch(() => undefined);
    // The thread stops before it answers: the batch is unsure, and tried again on a new thread.
    await threads.at(-1)?.terminate();
    await flushing;
    await expect(log.flush()).resolves.toBeUndefined();
    await Promise.all(reads);
    expect((await log.entries()).map((e) => e.input)).toEqual([{}, sampleEntry(2).input]);
    await log.close();
  });

  it('logs a read entry it drops because the queue is full, naming the tool', async () => {
    const { storage } = fresh('dropped');
    const logged: { message: string; fields: unknown }[] = [];
    const down: AuditWriter = {
      commit: () => Promise.reject(new Error('database away')),
      close: async () => undefined,
    };
    const log = new AuditLog(storage, {
      writer: down,
      maxWaiting: 2,
      log: {
        info: () => undefined,
        warn: () => undefined,
        error: (message, fields) => logged.push({ message, fields }),
      },
    });
    // Two reads admitted while there was room; a third that ran before the queue filled.
    log.note(sampleEntry(1));
    log.note(sampleEntry(2));
    log.note(sampleEntry(4, { tool: 'get_balances' }));
    expect(logged.some((line) => JSON.stringify(line.fields).includes('get_balances'))).toBe(true);
    await log.close(0);
  });
});

describe('the audit writer thread from the sources', () => {
  it('starts when the process runs from another directory', async () => {
    const src = (path: string) => fileURLToPath(new URL(`../../../src/${path}`, import.meta.url));
    const script = join(dir, 'append.mts');
    const file = join(dir, 'elsewhere.db');
    writeFileSync(
      script,
      [
        `import { AuditLog } from ${JSON.stringify(src('core/audit/index.ts'))};`,
        `import { ThreadWriter } from ${JSON.stringify(src('core/audit/thread-writer.ts'))};`,
        `import { openDatabase } from ${JSON.stringify(src('core/store/sqlite/database.ts'))};`,
        `import { sqliteStorage } from ${JSON.stringify(src('core/store/sqlite/storage.ts'))};`,
        `const file = ${JSON.stringify(file)};`,
        `const log = new AuditLog(sqliteStorage(openDatabase(file)), { writer: new ThreadWriter({ kind: 'sqlite', file }) });`,
        `const entry = { actor: 'cli:op', frontEnd: 'cli', tool: 'get_balances', input: {}, decision: 'allow', event: 'executed', outcome: 'ok' };`,
        "try { await log.append(entry); console.log('written', (await log.entries()).length); }",
        "catch (error) { console.log('failed:', String(error)); }",
        'finally { await log.close(); }',
      ].join('\n'),
    );
    const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
    const { stdout } = await promisify(execFile)(tsx, [script], { cwd: dir, timeout: 30_000 });
    expect(stdout.trim()).toBe('written 1');
  }, 40_000);
});
