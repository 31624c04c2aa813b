import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditInputError, AuditLog } from '../../../src/core/audit/index.js';
import { prepareEntry } from '../../../src/core/audit/seal.js';
import { ThreadWriter, type WriterTarget } from '../../../src/core/audit/thread-writer.js';
import { inlineWriter } from '../../../src/core/audit/writer.js';
import type { Storage } from '../../../src/core/store/index.js';
import { migrate } from '../../../src/core/store/postgres/migrate.js';
import { createPgPool, type PgStore } from '../../../src/core/store/postgres/pool.js';
import { postgresStorage } from '../../../src/core/store/postgres/storage.js';
import { openDatabase } from '../../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../../src/core/store/sqlite/storage.js';
import { sampleEntry } from '../../helpers/audit.js';
import { asServerAdmin, postgresAvailable, urlFor } from '../../helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-thread-writer-'));
/** A process that writes a durable entry and a read's through the writer thread, then leaves. */
const WRITE_AND_LEAVE = fileURLToPath(new URL('../../helpers/audit-write-and-leave.ts', import.meta.url));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pgAvailable = await postgresAvailable();

/** A database for one test, its storage in this thread, and the writer thread's target on it. */
interface Target {
  storage: Storage;
  target: WriterTarget;
}

/** The same tests on both backends: the thread opens its own connection to what `target` names. */
function writerSuite(backend: string, fresh: (name: string) => Promise<Target>): void {
  describe(`the audit writer thread on ${backend}`, () => {
    const threads: Worker[] = [];
    const logOn = async (name: string) => {
      const { storage, target } = await fresh(name);
      const writer = new ThreadWriter(target, { onThread: (thread) => threads.push(thread) });
      return { storage, log: new AuditLog(storage, { writer }) };
    };

    it('commits concurrent durable and read entries in the order recorded, in one chain', async () => {
      const { storage, log } = await logOn('order');
      const entries = await Promise.all(
        Array.from({ length: 64 }, (_, i) =>
          log.record(sampleEntry(i, { requestIds: [`r-${i}`] }), { durable: i % 3 === 0 }),
        ),
      );
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
      // Another view of the database (this thread's own connection) reads the same chain.
      const other = new AuditLog(storage);
      expect((await other.list({ limit: 100 })).map((e) => e.requestIds[0])).toEqual(
        Array.from({ length: 64 }, (_, i) => `r-${i}`),
      );
      expect(await other.verify()).toMatchObject({ ok: true, entries: 64 });
      await log.close();
    });

    it('keeps no process alive once its batches are written, a durable one and a read', async () => {
      const { storage, target } = await fresh('exit');
      // The process writes, never closes, and must end by itself; it is killed if it has not in 15 s.
      const child = spawn(process.execPath, ['--import', 'tsx', WRITE_AND_LEAVE, JSON.stringify(target)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
      clearTimeout(killer);
      expect({ code, signal, out }).toEqual({ code: 0, signal: null, out: 'written\n' });
      const log = new AuditLog(storage);
      expect((await log.list({ limit: 10 })).map((e) => e.requestIds[0])).toEqual(['durable', 'read']);
      expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
    });

    it('refuses an entry that breaks the schema alone, with its own error', async () => {
      const { log } = await logOn('refused');
      const results = await Promise.allSettled([
        log.record(sampleEntry(1), { durable: false }),
        log.record({ ...sampleEntry(2), event: 'decided', approvalId: null }, { durable: false }),
        log.record(sampleEntry(3, { input: { callback: () => 'no' } }), { durable: true }),
        log.append(sampleEntry(4)),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      const [, schema] = results;
      expect(schema?.status === 'rejected' && schema.reason).toBeInstanceOf(AuditInputError);
      // A value that cannot go to the thread (a function) is dropped, as JSON drops it in this thread.
      const kept = await log.list({ limit: 10 });
      expect(kept.map((e) => e.input)).toEqual([sampleEntry(1).input, {}, sampleEntry(4).input]);
      expect(await log.verify()).toMatchObject({ ok: true, entries: 3 });
      await log.close();
    });

    it('writes noted entries, nobody waiting, and logs the one it refuses instead of throwing', async () => {
      const { storage, target } = await fresh('noted');
      const logged: string[] = [];
      const log = new AuditLog(storage, {
        writer: new ThreadWriter(target),
        log: { info: () => undefined, warn: () => undefined, error: (message) => logged.push(message) },
      });
      log.note(sampleEntry(1, { requestIds: ['noted-1'] }));
      log.note({ ...sampleEntry(2), event: 'decided', approvalId: null });
      log.note(sampleEntry(3, { requestIds: ['noted-3'] }));
      // An audit read commits what was noted before it.
      expect((await log.list({ limit: 10 })).map((e) => e.requestIds[0])).toEqual(['noted-1', 'noted-3']);
      expect(logged).toEqual(['audit entry could not be written']);
      await log.close();
    });

    it('scrubs the secrets of the install and of the call, as in this thread', async () => {
      const { storage, target } = await fresh('secrets');
      const log = new AuditLog(storage, {
        writer: new ThreadWriter(target),
        secrets: ['install-api-key-0001'],
      });
      await log.append(
        sampleEntry(1, { error: 'refused install-api-key-0001 and 4111 1111 1111 1111 with pin-9876' }),
        { secrets: ['pin-9876'] },
      );
      const [entry] = await log.list({ limit: 1 });
      expect(entry?.error).not.toMatch(/install-api-key-0001|pin-9876|4111 1111 1111 1111/);
      expect(entry?.error).toContain('[REDACTED]');
      await log.close();
    });

    it('starts a new thread when one stops, and writes each entry once', async () => {
      const { log } = await logOn('restart');
      await log.append(sampleEntry(0, { requestIds: ['before'] }));
      // Stopped between batches: the next batch starts another thread.
      await threads.at(-1)?.terminate();
      await log.append(sampleEntry(1, { requestIds: ['after-stop'] }));
      // Stopped while a batch is in flight: its reads wait and are committed once, by the next thread.
      const started = threads.length;
      const reads = Array.from({ length: 20 }, (_, i) =>
        log.record(sampleEntry(i, { requestIds: [`read-${i}`] }), { durable: false }),
      );
      const flushing = log.flush().catch(() => undefined);
      await threads.at(-1)?.terminate();
      await flushing;
      await Promise.all(reads);
      expect(threads.length).toBeGreaterThan(started);
      const ids = (await log.list({ limit: 100 })).map((e) => e.requestIds[0]);
      expect(ids).toEqual(['before', 'after-stop', ...Array.from({ length: 20 }, (_, i) => `read-${i}`)]);
      expect(await log.verify()).toMatchObject({ ok: true, entries: 22 });
      await log.close();
    });

    it('does not write a batch again when its commit went through before the thread stopped', async () => {
      const { storage } = await fresh('unsure');
      const batch = [1, 2, 3].map((i) => prepareEntry(sampleEntry(i), {}, [], new Date(0).toISOString()));
      const first = await storage.appendAudit(batch, { durable: true });
      const again = await storage.appendAudit([], { durable: true, unsure: batch });
      expect(again.of).toBe('unsure');
      expect(again.entries).toEqual(first.entries);
      // A batch that never committed is not found: the new one is written.
      const [lost, fresher] = [5, 4].map((i) => [
        prepareEntry(sampleEntry(i), {}, [], new Date(i).toISOString()),
      ]);
      const next = await storage.appendAudit(fresher ?? [], { durable: true, unsure: lost });
      expect(next.of).toBe('batch');
      expect(next.entries.map((e) => e.seq)).toEqual([4]);
      await Promise.all([first.onDisk, again.onDisk, next.onDisk]);
    });
  });
}

writerSuite('SQLite', async (name) => {
  const file = join(dir, `${name}.db`);
  return { storage: sqliteStorage(openDatabase(file)), target: { kind: 'sqlite', file } };
});

const pgDatabases: string[] = [];
afterAll(async () => {
  await Promise.all(pgPools.map((store) => store.pool.end()));
  await asServerAdmin(async (admin) => {
    for (const name of pgDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});
const pgPools: PgStore[] = [];

if (pgAvailable) {
  // A database per test: each starts its chain from nothing, as the SQLite tests do with a file each.
  writerSuite('PostgreSQL', async (label) => {
    const name = `bankops_test_writer_${process.pid}_${label}`;
    pgDatabases.push(name);
    await asServerAdmin(async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
    });
    const store = createPgPool(urlFor(name));
    pgPools.push(store);
    await migrate(store);
    return {
      storage: postgresStorage(store),
      target: { kind: 'postgres', url: urlFor(name), applicationName: 'bankops-audit-test' },
    };
  });
}

describe('a writer thread that cannot start', () => {
  it('leaves the batches to the fallback writer in this thread, said once in the log', async () => {
    const file = join(dir, 'fallback.db');
    const storage = sqliteStorage(openDatabase(file));
    const logged: string[] = [];
    const log = {
      info: () => undefined,
      warn: () => undefined,
      error: (message: string) => logged.push(message),
    };
    // A directory where the thread expects the database file: it fails to open it and stops.
    const writer = new ThreadWriter({ kind: 'sqlite', file: dir }, { log, fallback: inlineWriter(storage) });
    const audit = new AuditLog(storage, { writer });
    await audit.append(sampleEntry(1, { requestIds: ['first'] }));
    await audit.append(sampleEntry(2, { requestIds: ['second'] }));
    expect((await audit.list({ limit: 10 })).map((e) => e.requestIds[0])).toEqual(['first', 'second']);
    expect(logged.filter((m) => m.includes('did not start'))).toHaveLength(1);
    await audit.close();
  });
});

describe('a writer thread still loading when the log closes', () => {
  it('hands what waits to the writer in this thread: the entries recorded are all written', async () => {
    const file = join(dir, 'closing.db');
    const storage = sqliteStorage(openDatabase(file));
    const logged: string[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: (m: string) => logged.push(m) };
    // A thread that never says it is ready: a host too busy to load it before the close.
    const threads: Worker[] = [];
    let started: () => void = () => undefined;
    const loading = new Promise<void>((resolve) => {
      started = resolve;
    });
    const writer = new ThreadWriter(
      { kind: 'sqlite', file },
      {
        log,
        fallback: inlineWriter(storage),
        start: () => {
          const thread = new Worker('setInterval(() => {}, 60_000)', { eval: true });
          threads.push(thread);
          started();
          return thread;
        },
      },
    );
    const audit = new AuditLog(storage, { writer, log });
    // Reads: answered at once, their entries committed later, by the writer.
    const recorded = Array.from({ length: 5 }, (_, i) =>
      audit.record(sampleEntry(i, { requestIds: [`read-${i}`] }), { durable: false }),
    );
    // The first batch went to the thread, which is still loading; the others wait behind it.
    await loading;
    // Far sooner than the thread's own 10 s to start: closing must not wait for it, nor lose them.
    await audit.close(1_000);
    await Promise.all(recorded);
    const written = new AuditLog(sqliteStorage(openDatabase(file)));
    expect((await written.list({ limit: 10 })).map((e) => e.requestIds[0])).toEqual([
      'read-0',
      'read-1',
      'read-2',
      'read-3',
      'read-4',
    ]);
    expect(await written.verify()).toMatchObject({ ok: true, entries: 5 });
    expect(logged).toEqual([]);
    expect(threads).toHaveLength(1);
    await Promise.all(threads.map((thread) => thread.terminate()));
  });
});
