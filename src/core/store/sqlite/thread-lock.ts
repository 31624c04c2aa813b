import { resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { internalError } from '../../errors.js';

/** The cell's value when no thread holds the lock; a holder writes its thread's id plus one. */
const FREE = 0;

/** How long a write waits for another thread of the process: SQLite's busy timeout (./database.ts). */
export const THREAD_WAIT_MS = 5_000;

/**
 * The write lock of one SQLite file between the threads of this process: the thread that answers
 * requests and the audit writer's thread, each with a connection of its own. Without it, one
 * thread's `BEGIN IMMEDIATE` meets the other's transaction in SQLite's busy handler, which waits
 * synchronously: the event loop stops until the other thread commits. Here a thread awaits the
 * lock (`Atomics.waitAsync`) and keeps answering meanwhile. Other processes on the file still meet
 * in SQLite's busy handler.
 */
export class ThreadLock {
  readonly #cell: Int32Array;
  readonly #me = threadId + 1;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.#cell = new Int32Array(buffer);
  }

  /**
   * Resolves with the release once this thread holds the lock. Gives up after `timeoutMs`, as
   * SQLite's busy timeout would, with SQLite's error code: a thread that waits for the other while
   * holding the lock (a transaction that waits for the audit writer) fails instead of hanging.
   */
  async acquire(timeoutMs: number): Promise<() => void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const held = Atomics.compareExchange(this.#cell, 0, FREE, this.#me);
      if (held === FREE) return () => this.#release();
      if (held === this.#me) throw internalError('a thread took its own SQLite write lock twice');
      const left = deadline - performance.now();
      if (left <= 0) throw busy();
      const waited = Atomics.waitAsync(this.#cell, 0, held, left);
      if (!waited.async) continue;
      // A pending wait does not keep a thread alive: this timer does, for as long as it may last.
      const alive = setTimeout(() => undefined, left);
      try {
        await waited.value;
      } finally {
        clearTimeout(alive);
      }
    }
  }

  #release(): void {
    if (Atomics.compareExchange(this.#cell, 0, this.#me, FREE) === this.#me) Atomics.notify(this.#cell, 0);
  }
}

/**
 * As SQLite's error when its busy timeout runs out (its code), saying which lock waited. A plain
 * `Error` on purpose, not a `CodedError`: whoever handles SQLite's busy error (its `code`) handles
 * this one the same way.
 */
function busy(): Error {
  return Object.assign(new Error('database is locked (by another thread of this process)'), {
    code: 'SQLITE_BUSY',
  });
}

/**
 * Frees the lock if the thread `holder` (a `Worker`'s `threadId`) holds it: that thread stopped,
 * and its connection, closed with it, holds nothing in SQLite.
 */
export function releaseHeldBy(buffer: SharedArrayBuffer, holder: number): void {
  const cell = new Int32Array(buffer);
  if (Atomics.compareExchange(cell, 0, holder + 1, FREE) === holder + 1) Atomics.notify(cell, 0);
}

/** The locks of this thread, by file: made here, or handed over by the thread that started this one. */
const locks = new Map<string, ThreadLock>();

/** The lock of `file` in this process (made on first use). */
export function threadLockOf(file: string): ThreadLock {
  const key = resolve(file);
  let lock = locks.get(key);
  if (lock === undefined) {
    lock = new ThreadLock(new SharedArrayBuffer(4));
    locks.set(key, lock);
  }
  return lock;
}

/** In a thread started with the lock of `file` (the audit writer's): this thread uses that one. */
export function adoptThreadLock(file: string, buffer: SharedArrayBuffer): void {
  locks.set(resolve(file), new ThreadLock(buffer));
}
