import { CanonicalText, canonicalJson, type JsonValue } from '../canonical-json.js';
import { optional } from '../optional.js';
import { collectSecrets, redact, sanitizeJson, sanitizeText } from '../redact.js';
import type { Storage, Stores, Tx } from '../store/index.js';
import { AuditInputError } from './errors.js';
import { entryHash } from './hash.js';
import { type AuditRow, entryOf } from './rows.js';
import type {
  AuditAnchor,
  AuditContent,
  AuditEntry,
  AuditEntryInput,
  AuditFilter,
  AuditVerifyResult,
} from './schema.js';
import { auditEntryInputSchema, MAX_ERROR_LENGTH } from './schema.js';
import { ChainCheck } from './verify.js';

export interface AuditLogOptions {
  /** The clock for `ts` (tests inject one). */
  now?: () => Date;
  /**
   * Secret values that must never be stored, whatever field or message they turn up in: the
   * service API key, MCP keys, Slack tokens. A function is read on every append (keys rotate).
   */
  secrets?: readonly string[] | (() => readonly string[]);
  /** Told how many entries each commit wrote (metrics); must not throw. */
  onWritten?: (count: number) => void;
  /** Told when a check of the whole chain finished (metrics); must not throw. */
  onVerified?: (at: Date) => void;
}

export interface AppendOptions {
  /** Field names that are secret for this tool only (family B card assignment: `code`). */
  extraKeys?: readonly string[];
  /** Secret values known to this call that may appear outside secret fields. */
  secrets?: readonly string[];
}

export interface RecordOptions extends AppendOptions {
  /**
   * `true`: committed at the end of this turn of the event loop with the other durable entries of
   * the turn, one fsync for all of them; the promise resolves once they are on disk.
   * `false` (reads): committed with the other relaxed entries of the next `RELAXED_WINDOW_MS`, to
   * the WAL without an fsync of their own. Callers need not wait: the entry is committed before
   * any later audit read, durable commit or `flush()` of this log, and within the window.
   */
  durable: boolean;
}

/** How long a relaxed entry may wait for others to share its commit, and how many may wait. */
export const RELAXED_WINDOW_MS = 10;
const RELAXED_MAX = 256;

interface Queued {
  unsealed: Unsealed;
  resolve: (entry: AuditEntry) => void;
  reject: (error: unknown) => void;
}

type Unsealed = Omit<AuditContent, 'seq' | 'ts'>;

const DEFAULT_LIST_LIMIT = 100;
/** Rows read at a time by checks over the whole log. */
const PAGE = 1000;

function truncate(text: string): string {
  return text.length <= MAX_ERROR_LENGTH ? text : `${text.slice(0, MAX_ERROR_LENGTH)}…[truncated]`;
}

/** Runs `then` once the transaction of `stores` commits (at once when it is not a write transaction's). */
function afterCommit(stores: Stores, then: () => void): void {
  if ('afterCommit' in stores && typeof stores.afterCommit === 'function') (stores as Tx).afterCommit(then);
  else then();
}

/**
 * The append-only, hash-chained audit log over the storage's audit table. `append` is one write
 * transaction (read the head, insert the next), so appenders in several processes serialise on the
 * backend's lock and keep a single chain; `appendIn` does the same inside a caller's transaction
 * (an approval's change and its entry commit together).
 */
export class AuditLog {
  readonly #storage: Storage;
  readonly #now: () => Date;
  readonly #secrets: () => readonly string[];
  readonly #onWritten: ((count: number) => void) | undefined;
  readonly #onVerified: ((at: Date) => void) | undefined;
  /** Entries waiting for the next group commit, by durability. */
  #queues: { durable: Queued[]; relaxed: Queued[] } = { durable: [], relaxed: [] };
  #durableScheduled = false;
  #relaxedTimer: NodeJS.Timeout | undefined;

  constructor(storage: Storage, options: AuditLogOptions = {}) {
    this.#storage = storage;
    this.#now = options.now ?? (() => new Date());
    this.#onWritten = options.onWritten;
    this.#onVerified = options.onVerified;
    const secrets = options.secrets ?? [];
    this.#secrets = typeof secrets === 'function' ? secrets : () => secrets;
  }

  /**
   * Validates, redacts (again: secret fields, secret values wherever they occur, card numbers,
   * bearer tokens) and appends one entry, on disk when it resolves. Rejects with
   * `AuditInputError` naming the fields at fault.
   */
  async append(input: AuditEntryInput, options: AppendOptions = {}): Promise<AuditEntry> {
    const unsealed = this.#prepare(input, options);
    await this.flush();
    return this.#storage.transaction(async (tx) => (await this.#seal(tx, [unsealed]))[0] as AuditEntry);
  }

  /** Appends one entry inside the caller's write transaction: both commit, or neither. */
  async appendIn(tx: Stores, input: AuditEntryInput, options: AppendOptions = {}): Promise<AuditEntry> {
    return (await this.#seal(tx, [this.#prepare(input, options)]))[0] as AuditEntry;
  }

  /** Chains a batch after the head (the insert trigger or the backend still checks every link). */
  async #seal(tx: Stores, batch: readonly Unsealed[]): Promise<AuditEntry[]> {
    let head = await tx.audit.head();
    const rows: AuditRow[] = [];
    const entries = batch.map((unsealed): AuditEntry => {
      const content: AuditContent = { seq: head.seq + 1, ts: this.#now().toISOString(), ...unsealed };
      const input = canonicalJson(content.input);
      const hash = entryHash(head.hash, { ...content, input: new CanonicalText(input) });
      rows.push({
        seq: content.seq,
        ts: content.ts,
        actor: content.actor,
        front_end: content.frontEnd,
        tool: content.tool,
        input,
        decision: content.decision,
        event: content.event,
        approval_id: content.approvalId,
        request_ids: JSON.stringify(content.requestIds),
        outcome: content.outcome,
        error: content.error,
        duration_ms: content.durationMs,
        evidence: content.evidence === undefined ? null : canonicalJson(content.evidence),
        prev_hash: head.hash,
        hash,
      });
      const entry = { ...content, prevHash: head.hash, hash };
      head = { seq: entry.seq, hash };
      return entry;
    });
    await tx.audit.insert(rows);
    const told = this.#onWritten;
    // Counted once committed; a caller's transaction that rolls back wrote nothing.
    if (told !== undefined) afterCommit(tx, () => told(rows.length));
    return entries;
  }

  #prepare(input: AuditEntryInput, options: AppendOptions): Unsealed {
    const parsed = auditEntryInputSchema.safeParse(input);
    if (!parsed.success) {
      throw new AuditInputError(
        parsed.error.issues.map((issue) => `${issue.path.join('.') || '(entry)'}: ${issue.message}`),
      );
    }
    const entry = parsed.data;
    const extraKeys = options.extraKeys ?? [];
    const secrets = [
      ...collectSecrets(entry.input, extraKeys),
      ...this.#secrets(),
      ...(options.secrets ?? []),
    ];
    return {
      actor: entry.actor,
      frontEnd: entry.frontEnd,
      tool: entry.tool,
      input: sanitizeJson(redact(entry.input, extraKeys), secrets),
      decision: entry.decision,
      event: entry.event,
      approvalId: entry.approvalId,
      requestIds: entry.requestIds,
      outcome: entry.outcome,
      error: entry.error === null ? null : truncate(sanitizeText(entry.error, secrets)),
      durationMs: entry.durationMs,
      // Stored exactly as signed: a scrubbed byte would make a true signature fail to verify. It holds
      // public keys, signatures and the input already redacted above, never a secret.
      ...optional('evidence', entry.evidence as JsonValue | undefined),
    };
  }

  /**
   * Group commit: appends the entry with others in one transaction. Durable entries of one turn of
   * the event loop share one fsync, and the promise resolves once they are on disk. Relaxed entries
   * (reads) share a commit with those of the next few milliseconds, without an fsync: a process
   * crash in that window loses them (never a write's entry: writes use `append`, on disk before the
   * service is called). Readers of this log in this process always see them first.
   */
  record(input: AuditEntryInput, options: RecordOptions): Promise<AuditEntry> {
    let unsealed: Unsealed;
    try {
      unsealed = this.#prepare(input, options);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AuditEntry>((resolve, reject) => {
      const queued = { unsealed, resolve, reject };
      if (options.durable) {
        this.#queues.durable.push(queued);
        if (this.#durableScheduled) return;
        this.#durableScheduled = true;
        // A microtask: callers whose promises settle together enqueue before it runs, so they share it.
        queueMicrotask(() => {
          this.#durableScheduled = false;
          void this.flush();
        });
        return;
      }
      this.#queues.relaxed.push(queued);
      if (this.#queues.relaxed.length >= RELAXED_MAX) void this.flush();
      else this.#relaxedTimer ??= setTimeout(() => void this.flush(), RELAXED_WINDOW_MS);
    });
  }

  /**
   * Commits every entry still waiting (relaxed first: they were recorded earlier). Audit reads of
   * this log call it, and whoever closes the database must await it first. Never rejects: an entry
   * that cannot be written rejects its own `record` promise.
   */
  async flush(): Promise<void> {
    if (this.#relaxedTimer !== undefined) {
      clearTimeout(this.#relaxedTimer);
      this.#relaxedTimer = undefined;
    }
    const { durable, relaxed } = this.#queues;
    if (durable.length === 0 && relaxed.length === 0) return;
    this.#queues = { durable: [], relaxed: [] };
    if (relaxed.length > 0) await this.#commit(relaxed, false);
    if (durable.length > 0) await this.#commit(durable, true);
  }

  async #commit(batch: Queued[], durable: boolean): Promise<void> {
    let sealed: AuditEntry[];
    try {
      sealed = await this.#storage.transaction(
        (tx) =>
          this.#seal(
            tx,
            batch.map((q) => q.unsealed),
          ),
        { durable },
      );
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    for (const [i, queued] of batch.entries()) queued.resolve(sealed[i] as AuditEntry);
  }

  /** The newest entry's seq and hash (seq 0 and 64 zeros when empty): an anchor to keep elsewhere. */
  async head(): Promise<AuditAnchor> {
    await this.flush();
    return this.#storage.read((stores) => stores.audit.head());
  }

  /** The newest `n` entries, oldest first. */
  async tail(n = 20): Promise<AuditEntry[]> {
    return (await this.list({ limit: n, order: 'desc' })).reverse();
  }

  /** Entries matching the filter, in `order` (default oldest first), at most `limit` (default 100). */
  async list(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    await this.flush();
    const rows = await this.#storage.read((stores) => stores.audit.select(filter, DEFAULT_LIST_LIMIT));
    return rows.map((row) => entryOf(row));
  }

  /** Stored rows in seq order, a page at a time, all read in one transaction (one moment of the log). */
  async #scan(visit: (rows: readonly unknown[]) => void, filter: AuditFilter = {}): Promise<void> {
    await this.flush();
    await this.#storage.read(async (stores) => {
      let after = filter.afterSeq;
      let left = filter.limit;
      for (;;) {
        const limit = left === undefined ? PAGE : Math.min(left, PAGE);
        const rows = await stores.audit.select(
          { ...filter, ...(after === undefined ? {} : { afterSeq: after }), order: 'asc', limit },
          undefined,
        );
        if (rows.length > 0) visit(rows);
        if (left !== undefined) left -= rows.length;
        if (rows.length < limit || left === 0) return;
        after = (rows[rows.length - 1] as { seq: number }).seq;
      }
    });
  }

  /**
   * Re-computes the whole chain. Pass an anchor (`head()` recorded elsewhere earlier) to also
   * detect a rewritten chain or entries removed from the end, which the chain alone cannot.
   */
  async verify(anchor?: AuditAnchor): Promise<AuditVerifyResult> {
    const check = new ChainCheck(anchor);
    await this.#scan((page) => {
      for (const row of page) check.add(row);
    });
    this.#onVerified?.(this.#now());
    return check.result();
  }

  /** Every entry, oldest first (for checks over the whole log). */
  async entries(): Promise<AuditEntry[]> {
    const entries: AuditEntry[] = [];
    await this.#scan((page) => {
      for (const row of page) entries.push(entryOf(row));
    });
    return entries;
  }

  /**
   * Writes matching entries (all by default, oldest first) as JSON lines: canonical JSON with
   * `prevHash` and `hash`, so an export can be checked without the database. Returns the count.
   */
  async exportJsonl(write: (line: string) => void, filter: AuditFilter = {}): Promise<number> {
    let count = 0;
    if (filter.order === 'desc') {
      for (const entry of await this.list({ ...filter, limit: filter.limit ?? Number.MAX_SAFE_INTEGER })) {
        write(canonicalJson(entry));
        count += 1;
      }
      return count;
    }
    await this.#scan((page) => {
      for (const row of page) {
        write(canonicalJson(entryOf(row)));
        count += 1;
      }
    }, filter);
    return count;
  }
}
