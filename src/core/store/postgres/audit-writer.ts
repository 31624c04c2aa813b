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
 * Group commit of audit entries on PostgreSQL: entries recorded while a commit is in flight go
 * together in the next one, so a replica makes one round trip and one WAL flush for many entries
 * and holds the chain's lock once for all of them. A durable entry's promise resolves once its
 * commit is flushed to disk. A batch of relaxed entries only (reads) commits with
 * `synchronous_commit = off`: a server crash within a fraction of a second may lose it, never a
 * durable one, and it starts after at most the relaxed window. A failed commit rejects each entry
 * of its batch (transient failures are first retried, as every transaction is).
 */
export class PgAuditWriter {
  readonly #store: PgStore;
  readonly #now: () => Date;
  readonly #window: number;
  readonly #maxBatch: number;
  #queue: Queued[] = [];
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<void> | undefined;

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
    while (this.#queue.length > 0 || this.#draining !== undefined) {
      this.#drain();
      await this.#draining;
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
      const durable = batch.some((queued) => queued.durable);
      try {
        const sealed = await withTransaction(this.#store, async (client) => {
          if (!durable) await client.query('SET LOCAL synchronous_commit = off');
          return appendAuditEntries(
            client,
            batch.map((queued) => queued.draft),
            this.#now,
          );
        });
        for (const [i, queued] of batch.entries()) queued.resolve(sealed[i] as AuditEntry);
      } catch (error) {
        for (const queued of batch) queued.reject(error);
      }
    }
  }
}
