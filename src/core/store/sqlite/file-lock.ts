import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import type { Db } from '../../db.js';
import { Mutex } from '../mutex.js';
import { THREAD_WAIT_MS, threadLockOf } from './thread-lock.js';

/**
 * One lock per database file in this process, shared by the core's storage and every other store
 * that writes to the file. Two connections to one file in one process (tests, tools) would
 * otherwise deadlock, the second's write blocking the thread that the first needs to finish its
 * transaction; and a store writing on the storage's own connection while a transaction awaits would
 * slip its write into that transaction.
 */
const fileLocks = new Map<string, Mutex>();
const memoryLocks = new WeakMap<Db, Mutex>();

function mutexOf(db: Db): Mutex {
  const locks = db.memory ? undefined : fileLocks;
  const file = resolve(db.name);
  let mutex = locks === undefined ? memoryLocks.get(db) : locks.get(file);
  if (mutex === undefined) {
    mutex = new Mutex();
    if (locks === undefined) memoryLocks.set(db, mutex);
    else locks.set(file, mutex);
  }
  return mutex;
}

interface Held {
  mutex: Mutex;
  held: boolean;
}
const holding = new AsyncLocalStorage<Held>();

/**
 * Runs `work` holding the lock of `db`'s file, after every earlier holder. Work that already holds
 * it (called from inside a holder) runs at once. Work that writes (all but `{ write: false }`) also
 * takes the file's lock between this process's threads (./thread-lock.ts), awaited, so this thread
 * never waits for the audit writer's thread inside SQLite's busy handler.
 */
export async function underFileLock<T>(
  db: Db,
  work: () => Promise<T> | T,
  options: { write?: boolean } = {},
): Promise<T> {
  const mutex = mutexOf(db);
  const current = holding.getStore();
  if (current?.mutex === mutex && current.held) return work();
  const release = await mutex.lock();
  const held: Held = { mutex, held: true };
  let releaseThreads: (() => void) | undefined;
  try {
    if (options.write !== false && !db.memory)
      releaseThreads = await threadLockOf(db.name).acquire(THREAD_WAIT_MS);
    return await holding.run(held, work);
  } finally {
    held.held = false;
    releaseThreads?.();
    release();
  }
}
