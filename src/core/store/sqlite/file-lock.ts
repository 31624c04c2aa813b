import { resolve } from 'node:path';
import { AsyncScope } from '../../async-scope.js';
import { Mutex } from '../mutex.js';
import type { Db } from './database.js';
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
  /** The lock between this process's threads, once the holder or a write inside it asked for it. */
  threads?: Promise<() => void> | undefined;
  /** Its release, once taken; the holder frees it when it ends. */
  releaseThreads?: () => void;
}
const holding = new AsyncScope<Held>();

/** Whether work on `db` must hold the lock between this process's threads: it writes to a file. */
const writes = (db: Db, options: { write?: boolean }): boolean => options.write !== false && !db.memory;

/** Takes the lock between this process's threads for `held`, once however many writes ask. */
async function takeThreads(db: Db, held: Held): Promise<void> {
  held.threads ??= threadLockOf(db.name)
    .acquire(THREAD_WAIT_MS)
    .then(
      (release) => {
        held.releaseThreads = release;
        return release;
      },
      (error: unknown) => {
        held.threads = undefined;
        throw error;
      },
    );
  await held.threads;
}

/** At the holder's end: the lock between threads is freed, now or once a pending wait for it ends. */
function freeThreads(held: Held): void {
  if (held.releaseThreads !== undefined) held.releaseThreads();
  else
    void held.threads?.then(
      (release) => release(),
      () => undefined,
    );
}

/**
 * Runs `work` holding the lock of `db`'s file, after every earlier holder. Work that already holds
 * it (called from inside a holder) runs at once. Work that writes (all but `{ write: false }`) also
 * takes the file's lock between this process's threads (./thread-lock.ts), awaited, so this thread
 * never waits for the audit writer's thread inside SQLite's busy handler; a write inside a holder
 * that only reads takes it then, and keeps it until that holder ends (its transaction now writes).
 */
export async function underFileLock<T>(
  db: Db,
  work: () => Promise<T> | T,
  options: { write?: boolean } = {},
): Promise<T> {
  const mutex = mutexOf(db);
  const current = holding.get();
  if (current?.mutex === mutex && current.held) {
    // Joined at once, as ever, unless it must first wait for the other threads.
    if (!writes(db, options) || current.releaseThreads !== undefined) return work();
    await takeThreads(db, current);
    // The holder ended while this waited (it did not wait for this work): this work is on its own.
    if (!current.held) return underFileLock(db, work, options);
    return work();
  }
  const release = await mutex.lock();
  const held: Held = { mutex, held: true };
  try {
    if (writes(db, options)) await takeThreads(db, held);
    return await holding.run(held, work);
  } finally {
    held.held = false;
    freeThreads(held);
    release();
  }
}
