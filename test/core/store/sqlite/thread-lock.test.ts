import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId, Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { ThreadWriter } from '../../../../src/core/audit/thread-writer.js';
import { type Db, openDatabase } from '../../../../src/core/store/sqlite/database.js';
import { underFileLock } from '../../../../src/core/store/sqlite/file-lock.js';
import { sqliteStorage } from '../../../../src/core/store/sqlite/storage.js';
import { THREAD_WAIT_MS, threadLockOf } from '../../../../src/core/store/sqlite/thread-lock.js';
import { sampleEntry } from '../../../helpers/audit.js';

const dir = mkdtempSync(join(tmpdir(), 'bankops-thread-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOLDER = new URL('../../../helpers/sqlite-lock-holder.ts', import.meta.url).href;

/** The holder thread, loaded through tsx as the audit writer's thread is from the sources. */
function startHolder(file: string): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(HOLDER)}); })`;
  return new Worker(boot, { eval: true, workerData: { file, threadLock: threadLockOf(file).buffer } });
}

/** The next message of `worker` that is `expected`. */
async function heard(worker: Worker, expected: string): Promise<void> {
  for (;;) {
    const [message] = (await once(worker, 'message')) as [string];
    if (message === expected) return;
  }
}

/** A file with a table to write, and this thread's storage on it. */
function fileWithTable(name: string) {
  const file = join(dir, `${name}.db`);
  const db = openDatabase(file);
  db.exec('CREATE TABLE lock_test (who TEXT NOT NULL)');
  const storage = sqliteStorage(db);
  const write = (who: string) =>
    storage.transaction(async () => {
      db.prepare('INSERT INTO lock_test (who) VALUES (?)').run(who);
    });
  const rows = () =>
    (db.prepare('SELECT who FROM lock_test ORDER BY rowid').all() as { who: string }[]).map((r) => r.who);
  return { file, db, write, rows };
}

describe('SQLite write lock between the threads of a process', () => {
  /**
   * While another thread holds a write transaction, `write` waits for it and this thread's event
   * loop still answers (a round trip); once the other commits, the write goes through after it.
   */
  async function waitsWithoutBlocking(name: string, write: (db: Db) => Promise<unknown>, row: string) {
    const { file, db, rows } = fileWithTable(name);
    const holder = startHolder(file);
    try {
      await heard(holder, 'holding');
      let settled = false;
      const mine = write(db).finally(() => {
        settled = true;
      });
      // A thread stuck in SQLite's busy handler would not hear the answer before its timeout.
      holder.postMessage('ping');
      await heard(holder, 'pong');
      expect(settled).toBe(false);

      holder.postMessage('commit');
      await mine;
      await heard(holder, 'committed');
      expect(rows()).toEqual(['other thread', row]);
    } finally {
      await holder.terminate();
      db.close();
    }
  }

  const insert = (db: Db, who: string) => db.prepare('INSERT INTO lock_test (who) VALUES (?)').run(who);

  it('a write waits for another thread of the process without stopping the event loop', async () => {
    await waitsWithoutBlocking(
      'awaits',
      (db) => sqliteStorage(db).transaction(async () => insert(db, 'request thread')),
      'request thread',
    );
  });

  it('a write inside a read transaction waits for another thread the same way', async () => {
    await waitsWithoutBlocking(
      'nested',
      (db) => sqliteStorage(db).read(() => underFileLock(db, () => insert(db, 'inside a read'))),
      'inside a read',
    );
  });

  it('a write left waiting by a read that ended takes the locks itself', async () => {
    const { file, db, rows } = fileWithTable('orphan');
    const cell = new Int32Array(threadLockOf(file).buffer);
    const holder = startHolder(file);
    try {
      await heard(holder, 'holding');
      let orphan: Promise<number> | undefined;
      // The read does not wait for the write it starts: it ends while the write waits.
      await sqliteStorage(db).read(async () => {
        orphan = underFileLock(db, () => {
          db.prepare('INSERT INTO lock_test (who) VALUES (?)').run('left waiting');
          return Atomics.load(cell, 0);
        });
      });
      holder.postMessage('commit');
      await heard(holder, 'committed');
      // It ran holding the lock between threads, as this thread (not after the read freed it).
      expect(await orphan).toBe(threadId + 1);
      expect(Atomics.load(cell, 0)).toBe(0);
      expect(rows()).toEqual(['other thread', 'left waiting']);
    } finally {
      await holder.terminate();
      db.close();
    }
  });

  it("the audit writer's thread, stopped while it holds the lock, frees it for a write waiting on it", async () => {
    const { file, db, write, rows } = fileWithTable('writer-stops');
    let thread: Worker | undefined;
    const writer = new ThreadWriter({ kind: 'sqlite', file }, { onThread: (started) => (thread = started) });
    try {
      await writer.commit([{ input: sampleEntry(1), options: {}, at: Date.now() }], {
        durable: true,
        secrets: [],
      });
      if (thread === undefined) throw new Error('no writer thread started');
      // The lock as the thread holds it mid-commit (its id in the cell); a write waits for it, and
      // the thread stops.
      const cell = new Int32Array(threadLockOf(file).buffer);
      Atomics.store(cell, 0, thread.threadId + 1);
      const started = performance.now();
      const waiting = write('after the writer stopped');
      await thread.terminate();
      await waiting;
      // Woken when the lock is freed, not when its wait runs out (5 s).
      expect(performance.now() - started).toBeLessThan(THREAD_WAIT_MS / 2);
      expect(rows()).toEqual(['after the writer stopped']);
      expect(Atomics.load(cell, 0)).toBe(0);
    } finally {
      await writer.close();
      db.close();
    }
  });
});
