import { canonicalJson } from '../canonical-json.js';
import type { Logger } from '../log.js';
import { optional } from '../optional.js';
import { sanitizeText } from '../redact.js';
import type { Storage, Stores, Tx } from '../store/index.js';
import { type CommitBatch, GroupCommit } from './group-commit.js';
import { entryOf } from './rows.js';
import type {
  AuditAnchor,
  AuditEntry,
  AuditEntryInput,
  AuditFilter,
  AuditVerifyResult,
  PolicyStamp,
} from './schema.js';
import { type Prepared, type PrepareOptions, prepareEntry, sealAfter } from './seal.js';
import { ChainCheck } from './verify.js';
import { type AuditWriter, inlineWriter } from './writer.js';

export { RELAXED_WINDOW_MS } from './group-commit.js';

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
  /** Where entries waiting for the database are reported (once when it fails, once when it is back). */
  log?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Entries that may wait for the database at most (default 10,000); see `record`. */
  maxWaiting?: number;
  /**
   * Who validates, serializes and commits the group commit's batches: by default this thread, over
   * the storage; a long-running process gives a thread of its own (./thread-writer.ts).
   */
  writer?: AuditWriter;
  /**
   * The policy version a decision in progress reads (`PolicyStore.stamp`), written into the entries
   * of decisions (every event but `credential` and `settled`: a read allowed at once has only its
   * `executed` entry) that do not name one, inside their hashed content. Read when the entry is
   * recorded, in the caller's context.
   */
  policyStamp?: () => PolicyStamp | undefined;
}

export type AppendOptions = PrepareOptions;

export interface RecordOptions extends AppendOptions {
  /**
   * `true`: committed in the next group commit, durably (on disk), and the promise resolves then.
   * `false` (reads): committed with the other entries of the next `RELAXED_WINDOW_MS`, without a
   * flush to disk of its own. Callers need not wait: the entry is committed before any later audit
   * read of this log, and kept in order through a database outage until it is written.
   */
  durable: boolean;
}

const DEFAULT_LIST_LIMIT = 100;
/** Rows read at a time by checks over the whole log. */
const PAGE = 1000;
/** How long `close` keeps trying to write what waits while the database fails. */
const CLOSE_TIMEOUT_MS = 5_000;

/** Runs `then` once the transaction of `stores` commits (at once when it is not a write transaction's). */
function afterCommit(stores: Stores, then: () => void): void {
  if ('afterCommit' in stores && typeof stores.afterCommit === 'function') (stores as Tx).afterCommit(then);
  else then();
}

/**
 * The append-only, hash-chained audit log over the storage's audit table. Entries are appended in
 * one way, a group commit (./group-commit.ts): entries recorded while a commit is in flight share
 * the next one, which takes the chain's head only (`Storage.appendAudit`: on PostgreSQL the chain's
 * advisory lock, not the core's write lock), so appenders in several processes keep one chain in
 * one order. `appendIn` seals an entry inside a caller's write transaction instead (an approval's
 * change and its entry commit together; the storage's lock is taken first, then the chain's).
 */
export class AuditLog {
  readonly #storage: Storage;
  readonly #now: () => Date;
  readonly #secrets: () => readonly string[];
  readonly #onWritten: ((count: number) => void) | undefined;
  readonly #onVerified: ((at: Date) => void) | undefined;
  readonly #group: GroupCommit;
  readonly #writer: AuditWriter;
  readonly #policyStamp: (() => PolicyStamp | undefined) | undefined;

  constructor(storage: Storage, options: AuditLogOptions = {}) {
    this.#storage = storage;
    this.#now = options.now ?? (() => new Date());
    this.#onWritten = options.onWritten;
    this.#onVerified = options.onVerified;
    const secrets = options.secrets ?? [];
    this.#secrets = typeof secrets === 'function' ? secrets : () => secrets;
    this.#writer = options.writer ?? inlineWriter(storage);
    this.#policyStamp = options.policyStamp;
    this.#group = new GroupCommit(this.#commit, {
      ...optional('log', options.log),
      ...optional('maxWaiting', options.maxWaiting),
    });
  }

  /**
   * Validates, redacts (again: secret fields, secret values wherever they occur, card numbers,
   * bearer tokens) and appends one entry, on disk when it resolves. Rejects with
   * `AuditInputError` naming the fields at fault, or with the database's error. Not from inside a
   * transaction of the storage (its commit would wait for that transaction): use `appendIn` there.
   */
  append(input: AuditEntryInput, options: AppendOptions = {}): Promise<AuditEntry> {
    return this.record(input, { ...options, durable: true });
  }

  /** Appends one entry inside the caller's write transaction: both commit, or neither. */
  async appendIn(tx: Stores, input: AuditEntryInput, options: AppendOptions = {}): Promise<AuditEntry> {
    const prepared = this.#prepare(this.#stamped(input), options);
    const { rows, entries } = sealAfter(await tx.audit.head(), [prepared]);
    await tx.audit.insert(rows);
    const told = this.#onWritten;
    // Counted once committed; a caller's transaction that rolls back wrote nothing.
    if (told !== undefined) afterCommit(tx, () => told(rows.length));
    return entries[0] as AuditEntry;
  }

  /**
   * Free text as an entry's `error` would keep it (known secrets scrubbed, card numbers masked,
   * tokens removed; not truncated): a text it changes holds something the log would not keep.
   */
  sanitized(text: string): string {
    return sanitizeText(text, this.#secrets());
  }

  /** The entry of a decision with the version that decided, unless it names one already. */
  #stamped(input: AuditEntryInput): AuditEntryInput {
    if (this.#policyStamp === undefined || input.policy !== undefined) return input;
    // Passkeys' enrolment and money settling later are not decisions of the policy.
    if (input.event === 'credential' || input.event === 'settled') return input;
    const policy = this.#policyStamp();
    return policy === undefined ? input : { ...input, policy };
  }

  #prepare(input: AuditEntryInput, options: AppendOptions): Prepared {
    return prepareEntry(input, options, this.#secrets(), this.#now().toISOString());
  }

  /**
   * Group commit: appends the entry with the others waiting, in the order recorded. A durable
   * entry resolves once on disk; if the database fails, it rejects. A relaxed entry (a read's)
   * shares a commit with those of the next few milliseconds, without a flush to disk of its own:
   * a process crash in that window loses it (never a write's entry). While the database fails,
   * relaxed entries wait in order and are tried again until it is back; when `maxWaiting` entries
   * wait, a new relaxed entry is refused with `AuditBacklogFullError` (see `accepting`). The
   * entry is validated when its batch is taken: `AuditInputError` rejects it then, alone. The
   * caller must not change `input` after the call.
   */
  record(input: AuditEntryInput, options: RecordOptions): Promise<AuditEntry> {
    // Its time is now; it is validated, redacted and serialized (its time written out too) with
    // its batch, off the caller's path.
    const at = this.#now().getTime();
    return this.#group.add(
      { input: this.#stamped(input), at, options: this.#optionsOf(options) },
      options.durable,
    );
  }

  /**
   * Records a relaxed entry whose caller does not wait for it (a read's outcome): as `record` with
   * `durable: false`, without a promise. An entry that breaks the schema is logged, not thrown;
   * while the queue is full (see `accepting`) the entry is dropped, and logged. The caller must
   * not change `input` after the call.
   */
  note(input: AuditEntryInput, options: AppendOptions = {}): void {
    // The options are copied now: the caller may reuse its object before the batch is prepared.
    this.#group.note({
      input: this.#stamped(input),
      at: this.#now().getTime(),
      options: this.#optionsOf(options),
      noted: true,
    });
  }

  /** What preparing an entry needs of the options: the secrets to scrub, nothing else. */
  #optionsOf({ extraKeys, secrets }: AppendOptions): AppendOptions {
    // Field by field: this runs for every read.
    const kept: AppendOptions = {};
    if (extraKeys !== undefined) kept.extraKeys = extraKeys;
    if (secrets !== undefined) kept.secrets = secrets;
    return kept;
  }

  /** Whether a read's entry would be taken now: false while the queue is full (the database away). */
  get accepting(): boolean {
    return this.#group.accepting();
  }

  /** Entries recorded and not yet committed. */
  get waiting(): number {
    return this.#group.waiting;
  }

  /**
   * Commits every entry recorded before this call. Audit reads of this log call it. Rejects with
   * the database's error when it fails; the relaxed entries then keep waiting.
   */
  flush(): Promise<void> {
    return this.#group.flush();
  }

  /**
   * Flushes before the database is closed, trying again for up to `timeoutMs` (default 5 s) while
   * it fails; what still waits then is lost, and the log says how many. Never rejects.
   */
  async close(timeoutMs = CLOSE_TIMEOUT_MS): Promise<void> {
    this.#writer.closing?.();
    await this.#group.close(Date.now() + timeoutMs);
    await this.#writer.close();
  }

  /** One commit of a batch at the chain's head (see `CommitBatch`), by the writer. */
  readonly #commit: CommitBatch = async (batch, options) => {
    const committed = await this.#writer.commit(batch, { ...options, secrets: this.#secrets() });
    // A noted entry comes back from the writer's thread as written, without its entry: counted too.
    this.#onWritten?.(committed.results.filter((result) => !('refused' in result)).length);
    return committed;
  };

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
          { ...filter, ...optional('afterSeq', after), order: 'asc', limit },
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
