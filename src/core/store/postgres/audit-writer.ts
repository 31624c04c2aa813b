import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AuditEntry } from '../../audit/schema.js';
import { type AuditDraft, appendAuditEntries } from './audit.js';
import type { PgStore } from './pool.js';
import { withTransaction } from './transaction.js';

export interface AuditWriterOptions {
  /** The clock for `ts` (tests inject one). */
  now?: () => Date;
  /** How long a relaxed entry may wait for others to share its commit (default 10 ms, as SQLite). */
  relaxedWindowMs?: number;
  /** Entries in one transaction at most (default 1,000). */
  maxBatch?: number;
}

interface Queued {
  draft: AuditDraft;
  durable: boolean;
  resolve: (entry: AuditEntry) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of audit entries on PostgreSQL. Entries recorded while a commit is in flight go
 * together in the next one: one round trip and one hold of the chain's lock for many entries.
 *
 * Each batch commits with `synchronous_commit = off`, so the chain's lock (held until COMMIT) is
 * not held while the disk flushes, and replicas do not queue behind each other's flushes. A batch
 * holding a durable entry then waits for a flush barrier: a tiny transaction committed
 * synchronously after the batch committed, which flushes the write-ahead log up to and past the
 * batch. Only then do its durable entries resolve. A barrier serves every batch committed before
 * it started. The log on disk is always a prefix of the chain (the WAL is flushed in order), so a
 * server crash loses at most entries nobody was told were durable. Relaxed entries (reads) start a
 * commit within the relaxed window and resolve without a barrier. A failed commit or barrier
 * rejects its entries (transient failures are first retried, as every transaction is).
 */
export class PgAuditWriter {
  readonly #store: PgStore;
  readonly #now: () => Date;
  readonly #window: number;
  readonly #maxBatch: number;
  readonly #name = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  #queue: Queued[] = [];
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<void> | undefined;
  #awaitingFlush: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  #flushing: Promise<void> | undefined;
  /** Commits and barriers so far, and the entries they carried (for benches and metrics). */
  readonly stats = { batches: 0, entries: 0, barriers: 0 };

  constructor(store: PgStore, options: AuditWriterOptions = {}) {
    this.#store = store;
    this.#now = options.now ?? (() => new Date());
    this.#window = options.relaxedWindowMs ?? 10;
    this.#maxBatch = options.maxBatch ?? 1_000;
  }

  record(draft: AuditDraft, options: { durable: boolean }): Promise<AuditEntry> {
    return new Promise<AuditEntry>((resolve, reject) => {
      this.#queue.push({ draft, durable: options.durable, resolve, reject });
      if (options.durable || this.#queue.length >= this.#maxBatch) this.#drain();
      else this.#timer ??= setTimeout(() => this.#drain(), this.#window);
    });
  }

  /** Commits everything recorded so far; resolves once it is committed (or has failed). */
  async flush(): Promise<void> {
    while (this.#queue.length > 0 || this.#draining !== undefined || this.#flushing !== undefined) {
      this.#drain();
      await this.#draining;
      await this.#flushing;
    }
  }

  #drain(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#draining ??= this.#commitAll().finally(() => {
      this.#draining = undefined;
      // Recorded after the last batch was taken but before this ran (a writer resumed by its entry).
      if (this.#queue.length > 0) this.#drain();
    });
  }

  async #commitAll(): Promise<void> {
    // One turn of the event loop first: writers whose turns end together share the commit.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      let sealed: AuditEntry[];
      try {
        const drafts = batch.map((queued) => queued.draft);
        sealed = await withTransaction(this.#store, (client) =>
          appendAuditEntries(client, drafts, { now: this.#now, synchronousCommit: false }),
        );
      } catch (error) {
        for (const queued of batch) queued.reject(error);
        continue;
      }
      this.stats.batches += 1;
      this.stats.entries += batch.length;
      const settle = () => {
        for (const [i, queued] of batch.entries()) queued.resolve(sealed[i] as AuditEntry);
      };
      if (!batch.some((queued) => queued.durable)) settle();
      else
        this.#afterFlush().then(settle, (error: unknown) => {
          for (const queued of batch) queued.reject(error);
        });
    }
  }

  /** Resolves once the WAL is on disk past everything committed before this call. */
  #afterFlush(): Promise<void> {
    const flushed = new Promise<void>((resolve, reject) => this.#awaitingFlush.push({ resolve, reject }));
    this.#flushing ??= this.#barriers().finally(() => {
      this.#flushing = undefined;
    });
    return flushed;
  }

  async #barriers(): Promise<void> {
    while (this.#awaitingFlush.length > 0) {
      const waiting = this.#awaitingFlush.splice(0);
      this.stats.barriers += 1;
      try {
        await this.#store.pool.query(
          `INSERT INTO audit_flushes (writer, flushes) VALUES ($1, 1)
           ON CONFLICT (writer) DO UPDATE SET flushes = audit_flushes.flushes + 1, at = now()`,
          [this.#name],
        );
        for (const waiter of waiting) waiter.resolve();
      } catch (error) {
        for (const waiter of waiting) waiter.reject(error);
      }
    }
  }
}
