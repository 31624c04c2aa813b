import { AsyncResource } from 'node:async_hooks';
import { internalError, messageOf } from '../errors.js';
import type { Logger } from '../log.js';
import { within } from '../within.js';
import { AuditBacklogFullError } from './errors.js';
import type { AuditEntry } from './schema.js';
import type { Pending, WriterCommit } from './writer.js';

/** How long a relaxed entry may wait for others to share its commit. */
export const RELAXED_WINDOW_MS = 10;
/** Relaxed entries waiting that start a commit at once, without waiting for the window. */
const RELAXED_START = 256;
/** Entries in one commit at most. */
const MAX_BATCH = 1_000;
/** Entries waiting at most (while the database is away); a read's entry beyond it is refused. */
const MAX_WAITING = 10_000;
/** Pauses between attempts while the database fails: doubling from the first to the last. */
const RETRY_MS = [100, 5_000] as const;

/** One commit of a batch at the head of the chain (an `AuditWriter`'s). */
export type CommitBatch = (
  batch: readonly Pending[],
  options: { durable: boolean; unsure?: readonly Pending[] | undefined },
) => Promise<WriterCommit>;

interface Queued {
  /** Numbered in the order recorded: `flush` waits for the ones recorded before it. */
  n: number;
  /** The entry as recorded: validated and serialized by the writer, with its batch. */
  pending: Pending;
  durable: boolean;
  /** When it was recorded (`performance.now()`): its window ends `RELAXED_WINDOW_MS` later. */
  queuedAt: number;
  /** Absent for a noted entry: nobody waits for it. */
  resolve?: (entry: AuditEntry) => void;
  reject?: (error: unknown) => void;
}

/** A failed attempt that may still have committed: the whole batch, looked for by the next commit. */
interface Unsure {
  queued: Queued[];
}

export interface GroupCommitOptions {
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Entries waiting at most (default `MAX_WAITING`). */
  maxWaiting?: number;
}

/**
 * The audit log's group commit: entries recorded while a commit is in flight go together in the
 * next one, one commit (on PostgreSQL one statement, holding the chain's lock on the server) for many
 * entries. A batch holding a durable entry is a durable commit; others are relaxed. Durable entries
 * start a commit at the next turn of the event loop; relaxed ones within `RELAXED_WINDOW_MS`.
 *
 * When a commit fails (the database is down), its durable entries are refused (their callers wait
 * and hear it), and its relaxed ones stay at the head of the queue, in order, and are tried again
 * with a growing pause until the database is back: a read answered during an outage is still
 * written, in the order it happened. At most `maxWaiting` entries wait; beyond that a relaxed entry
 * is refused (and said so once in the log) until the queue has room again.
 */
export class GroupCommit {
  readonly #commit: CommitBatch;
  readonly #log: GroupCommitOptions['log'];
  readonly #maxWaiting: number;
  /** Commits run in the context this was made in, never in a recorder's transaction. */
  readonly #start = AsyncResource.bind(() => this.#kick());
  readonly #drainOutside = AsyncResource.bind(() => this.#drain());
  #queue: Queued[] = [];
  #recorded = 0;
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  #draining: Promise<void> | undefined;
  /** While the database fails: the last error and the next pause. */
  #failing: { error: unknown; pauseMs: number } | undefined;
  /**
   * Failed attempts that may have committed, oldest first. An attempt that reached the database
   * looked for the one before it first and wrote nothing if it found it; so of several, at most one
   * is committed, and the older ones are looked for alone before the next batch goes.
   */
  #unsure: Unsure[] = [];
  #full = false;
  /** Committed batches waiting to be on disk (the next commit does not wait for them). */
  readonly #toDisk = new Set<Promise<void>>();

  constructor(commit: CommitBatch, options: GroupCommitOptions = {}) {
    this.#commit = commit;
    this.#log = options.log;
    this.#maxWaiting = options.maxWaiting ?? MAX_WAITING;
  }

  /** Entries waiting for their commit. */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Whether a relaxed entry is taken now: not while the queue is full (the database away). The
   * first refusal of a run of them is logged.
   */
  accepting(): boolean {
    if (this.#queue.length < this.#maxWaiting) return true;
    if (!this.#full) {
      this.#full = true;
      this.#log?.error('audit entries cannot be written and the queue is full: reads are refused', {
        waiting: this.#queue.length,
        error: this.#failing?.error,
      });
    }
    return false;
  }

  /**
   * Queues an entry. The writer validates and serializes it with its batch, off the caller's path;
   * an entry that breaks the schema is refused alone.
   */
  add(pending: Pending, durable: boolean): Promise<AuditEntry> {
    if (!durable && !this.accepting()) return Promise.reject(new AuditBacklogFullError(this.#queue.length));
    return new Promise<AuditEntry>((resolve, reject) => {
      this.#recorded += 1;
      this.#queue.push({ n: this.#recorded, pending, durable, queuedAt: performance.now(), resolve, reject });
      this.#schedule(durable);
    });
  }

  /**
   * Queues a relaxed entry nobody waits for (no promise to settle: a read's outcome). One the
   * writer refuses is logged; while the queue is full it is dropped, and logged with its tool.
   */
  note(pending: Pending & { noted: true }): void {
    if (!this.accepting()) {
      // Its read ran (it was let in while the queue had room): that it goes unrecorded is said.
      this.#log?.error('audit entry could not be written; the outcome stands', {
        tool: pending.input.tool,
        error: new AuditBacklogFullError(this.#queue.length),
      });
      return;
    }
    this.#recorded += 1;
    this.#queue.push({ n: this.#recorded, pending, durable: false, queuedAt: performance.now() });
    this.#schedule(false);
  }

  /**
   * Commits everything recorded before this call; rejects with the database's error if it fails
   * (relaxed entries then stay queued and are tried again).
   */
  async flush(): Promise<void> {
    const upTo = this.#recorded;
    while ((this.#queue[0]?.n ?? Number.POSITIVE_INFINITY) <= upTo) {
      this.#kick();
      await this.#draining;
      const failing = this.#failing;
      if (failing !== undefined && (this.#queue[0]?.n ?? Number.POSITIVE_INFINITY) <= upTo)
        throw failing.error;
    }
    await Promise.allSettled([...this.#toDisk]);
  }

  /**
   * Flushes, trying again until `deadline` (ms since the epoch) while the database fails; what is
   * still waiting then is refused and said so in the log. A flush that hangs (a commit, or a durable
   * batch's wait for the disk, that never ends) is given up at `deadline` too. Returns how many
   * entries were lost.
   */
  async close(deadline: number): Promise<number> {
    for (;;) {
      try {
        if (await beforeDeadline(this.flush(), deadline)) return 0;
        return this.#giveUp(internalError('the audit log was still writing when it had to close'));
      } catch (error) {
        const pause = this.#failing?.pauseMs ?? RETRY_MS[0];
        if (Date.now() + pause >= deadline) return this.#giveUp(error);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /** At closing: what is still queued is refused, and what is not known to be on disk is said. */
  #giveUp(error: unknown): number {
    const lost = this.#queue.splice(0);
    this.#clearTimer();
    if (lost.length > 0) {
      this.#log?.error('audit entries could not be written before closing: they are lost', {
        count: lost.length,
        error,
      });
    }
    for (const queued of lost) queued.reject?.(error);
    if (this.#toDisk.size > 0) {
      this.#log?.error('audit batches committed but not known to be on disk when closing', {
        batches: this.#toDisk.size,
        error,
      });
    }
    return lost.length;
  }

  #schedule(durable: boolean): void {
    if (this.#draining !== undefined) return; // the running drain takes it
    if (durable) {
      // A writer waits for its entry: it is tried now even while the database fails.
      // At the next turn of the event loop: writers whose turns end together share the commit.
      this.#clearTimer();
      this.#immediate = setImmediate(this.#start);
    } else if (this.#failing === undefined) {
      if (this.#queue.length >= RELAXED_START) this.#kick();
      else {
        const oldest = this.#queue[0]?.queuedAt ?? performance.now();
        const left = Math.max(0, oldest + RELAXED_WINDOW_MS - performance.now());
        this.#timer ??= setTimeout(this.#start, left);
      }
    }
  }

  /**
   * Whether what waits is due now: a durable entry, enough relaxed ones, or the oldest's window
   * over. Otherwise relaxed entries recorded during a commit wait for their window rather than go
   * one or two at a time in the next commit (a process answering reads one after another).
   */
  #due(): boolean {
    const oldest = this.#queue[0];
    if (oldest === undefined) return false;
    return (
      this.#queue.length >= RELAXED_START ||
      performance.now() >= oldest.queuedAt + RELAXED_WINDOW_MS ||
      this.#queue.some((queued) => queued.durable)
    );
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    this.#timer = undefined;
    this.#immediate = undefined;
  }

  #kick(): void {
    this.#clearTimer();
    this.#draining ??= this.#drainOutside().finally(() => {
      this.#draining = undefined;
      const next = this.#queue[0];
      if (next === undefined) return;
      if (this.#failing !== undefined) this.#timer ??= setTimeout(this.#start, this.#failing.pauseMs);
      else this.#schedule(this.#queue.some((queued) => queued.durable));
    });
  }

  async #drain(): Promise<void> {
    do {
      const batch = this.#queue.slice(0, MAX_BATCH);
      if (batch.length > 0 && !(await this.#commitBatch(batch))) return;
    } while (this.#due());
  }

  /** Whether the batch left the queue (committed, or refused as a whole). */
  async #commitBatch(batch: Queued[]): Promise<boolean> {
    const older = await this.#lookForOlder();
    if (older === 'failed') {
      // The database did not answer: a durable entry of this batch cannot be written now, and its
      // caller hears it at once rather than wait for the database to come back.
      this.#refuseDurable(batch, this.#failing?.error);
      return false;
    }
    if (older === 'found') return true;
    const unsure = this.#unsure[0];
    let committed: WriterCommit;
    try {
      committed = await this.#commit(
        batch.map((queued) => queued.pending),
        {
          durable: batch.some((queued) => queued.durable),
          unsure: unsure?.queued.map((queued) => queued.pending),
        },
      );
    } catch (error) {
      this.#failed(batch, error);
      return false;
    }
    this.#unsure = [];
    // When the earlier attempt did commit, its entries are settled and the rest goes in the next
    // batch. Either way the database answered: the failure is over.
    this.#settle(committed.of === 'unsure' && unsure !== undefined ? unsure.queued : batch, committed);
    this.#answered();
    return true;
  }

  /**
   * Looks for every unsure batch but the newest alone (an empty batch that writes nothing), oldest
   * first: `found` settles it (none after it committed), `failed` when the database did not answer.
   */
  async #lookForOlder(): Promise<'none' | 'found' | 'failed'> {
    while (this.#unsure.length > 1) {
      const [older] = this.#unsure as [Unsure, ...Unsure[]];
      let found: WriterCommit;
      try {
        found = await this.#commit([], {
          durable: false,
          unsure: older.queued.map((queued) => queued.pending),
        });
      } catch (error) {
        this.#failed([], error);
        return 'failed';
      }
      if (found.of === 'unsure') {
        this.#unsure = [];
        this.#settle(older.queued, found);
        this.#answered();
        return 'found';
      }
      this.#unsure.shift();
    }
    return 'none';
  }

  /** The database answered: a failure is over. */
  #answered(): void {
    if (this.#failing !== undefined) {
      this.#log?.info('audit entries are written again', { waiting: this.#queue.length });
      this.#failing = undefined;
    }
    if (this.#queue.length < this.#maxWaiting) this.#full = false;
  }

  /**
   * Takes a committed batch off the queue: an entry the writer refused is rejected now, the others
   * resolve once on disk.
   */
  #settle(batch: readonly Queued[], { results, onDisk }: WriterCommit): void {
    const done = new Set(batch);
    this.#queue = this.#queue.filter((queued) => !done.has(queued));
    const written: [Queued, AuditEntry][] = [];
    for (const [i, queued] of batch.entries()) {
      const result = results[i];
      if (result !== undefined && 'entry' in result) written.push([queued, result.entry]);
      else if (queued.resolve === undefined && result !== undefined && 'noted' in result) continue;
      else {
        const error =
          result !== undefined && 'refused' in result
            ? result.refused
            : internalError('the audit writer gave no entry for a recorded one');
        if (queued.reject !== undefined) queued.reject(error);
        else this.#log?.error('audit entry could not be written', { tool: queued.pending.input.tool, error });
      }
    }
    if (written.length === 0) return;
    const settled = onDisk.then(
      () => {
        for (const [queued, entry] of written) queued.resolve?.(entry);
      },
      (error: unknown) => {
        // Committed, but not known to be on disk: a durable entry's caller must not count on it.
        for (const [queued, entry] of written) {
          if (queued.durable) queued.reject?.(error);
          else queued.resolve?.(entry);
        }
      },
    );
    this.#toDisk.add(settled);
    void settled.finally(() => this.#toDisk.delete(settled));
  }

  /** Durable entries are refused now: their callers wait, and must not act on an unwritten entry. */
  #refuseDurable(batch: readonly Queued[], error: unknown): void {
    const refused = new Set(batch.filter((queued) => queued.durable));
    if (refused.size === 0) return;
    this.#queue = this.#queue.filter((queued) => !refused.has(queued));
    for (const queued of refused) queued.reject?.(error);
  }

  #failed(batch: readonly Queued[], error: unknown): void {
    this.#refuseDurable(batch, error);
    const kept = batch.filter((queued) => !queued.durable);
    // A commit cut off may have gone through: the next attempt looks for this batch first (settling
    // a refused entry again does nothing).
    if (kept.length > 0) this.#unsure.push({ queued: [...batch] });
    if (kept.length === 0 && this.#queue.length === 0) return;
    const pauseMs =
      this.#failing === undefined ? RETRY_MS[0] : Math.min(this.#failing.pauseMs * 2, RETRY_MS[1]);
    if (this.#failing === undefined) {
      this.#log?.warn('audit entries cannot be written now; they wait and are tried again', {
        waiting: this.#queue.length,
        error: messageOf(error),
      });
    }
    this.#failing = { error, pauseMs };
  }
}

/** Whether `work` ended before `deadline` (ms since the epoch); it rejects if `work` did first. */
async function beforeDeadline(work: Promise<void>, deadline: number): Promise<boolean> {
  return (await within(work, Math.max(0, deadline - Date.now()))) !== undefined;
}
