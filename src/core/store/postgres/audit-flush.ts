import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { databaseUnreachable, isUnreachable } from './errors.js';
import type { PgStore } from './pool.js';

/**
 * Durable audit commits on PostgreSQL without holding the chain's lock through a disk flush. An
 * audit batch commits with `synchronous_commit = off`, so the chain's advisory lock (held until
 * COMMIT) is released before the write-ahead log reaches the disk, and replicas do not queue behind
 * each other's flushes. A durable batch then waits for a barrier: a tiny transaction committed
 * synchronously after the batch committed, which flushes the WAL up to and past the batch (the WAL
 * is flushed in order). One barrier serves every batch committed before it started, so the log on
 * disk is always a prefix of the chain: a server crash loses at most entries nobody was told were
 * durable. The barrier writes this process's row of `audit_flushes` (a commit that wrote nothing
 * would not wait for the disk).
 */
export class WalBarrier {
  readonly #store: PgStore;
  readonly #name = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  #waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  #running: Promise<void> | undefined;

  constructor(store: PgStore) {
    this.#store = store;
  }

  /** Resolves once the WAL is on disk past everything committed before this call. */
  after(): Promise<void> {
    const flushed = new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }));
    this.#running ??= this.#run();
    return flushed;
  }

  /**
   * Barriers until nobody waits. It lets go of `#running` in the same step as it finds the queue
   * empty: a caller arriving after that starts the next run, and none waits for a run that ended.
   */
  async #run(): Promise<void> {
    for (;;) {
      if (this.#waiting.length === 0) {
        this.#running = undefined;
        return;
      }
      const waiting = this.#waiting.splice(0);
      try {
        await this.#store.pool.query(
          `INSERT INTO audit_flushes (writer, flushes) VALUES ($1, 1)
           ON CONFLICT (writer) DO UPDATE SET flushes = audit_flushes.flushes + 1, at = now()`,
          [this.#name],
        );
        for (const waiter of waiting) waiter.resolve();
      } catch (error) {
        const failure = isUnreachable(error) ? databaseUnreachable(this.#store.where, error) : error;
        for (const waiter of waiting) waiter.reject(failure);
      }
    }
  }
}
