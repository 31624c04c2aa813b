import type { Statement } from 'better-sqlite3';
import { CanonicalText, canonicalJson, type JsonValue } from '../canonical-json.js';
import type { Db } from '../db.js';
import { optional } from '../optional.js';
import { collectSecrets, redact, sanitizeJson, sanitizeText } from '../redact.js';
import { AuditInputError } from './errors.js';
import { entryHash, GENESIS_HASH } from './hash.js';
import { migrateAuditLog } from './migrations.js';
import { DEFAULT_LIST_LIMIT, selectEntries } from './query.js';
import { entryOf } from './rows.js';
import type {
  AuditAnchor,
  AuditContent,
  AuditEntry,
  AuditEntryInput,
  AuditFilter,
  AuditVerifyResult,
} from './schema.js';
import { auditEntryInputSchema, MAX_ERROR_LENGTH } from './schema.js';
import { verifyRows } from './verify.js';

export interface AuditLogOptions {
  /** The clock for `ts` (tests inject one). */
  now?: () => Date;
  /**
   * Secret values that must never be stored, whatever field or message they turn up in: the
   * service API key, MCP keys, Slack tokens. A function is read on every append (keys rotate).
   */
  secrets?: readonly string[] | (() => readonly string[]);
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

const headSql = 'SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1';

function truncate(text: string): string {
  return text.length <= MAX_ERROR_LENGTH ? text : `${text.slice(0, MAX_ERROR_LENGTH)}…[truncated]`;
}

/**
 * The append-only, hash-chained audit log. Every method is synchronous; `append` is one
 * `BEGIN IMMEDIATE` transaction (read head, insert next), so appenders in several processes that
 * share the file serialise on SQLite's write lock and keep a single chain.
 */
export class AuditLog {
  readonly #db: Db;
  /** The connection's own setting, restored after a batch of reads. */
  readonly #synchronous: 'FULL' | 'NORMAL';
  readonly #now: () => Date;
  readonly #secrets: () => readonly string[];
  readonly #insert: Statement;
  readonly #head: Statement<[], unknown>;
  readonly #seal: (unsealed: Unsealed) => AuditEntry;
  readonly #sealMany: (batch: readonly Unsealed[]) => AuditEntry[];
  /** Entries waiting for the next group commit, by durability. */
  #queues: { durable: Queued[]; relaxed: Queued[] } = { durable: [], relaxed: [] };
  #durableScheduled = false;
  #relaxedTimer: NodeJS.Timeout | undefined;

  constructor(db: Db, options: AuditLogOptions = {}) {
    migrateAuditLog(db);
    this.#db = db;
    this.#synchronous = String(db.pragma('synchronous', { simple: true })) === '1' ? 'NORMAL' : 'FULL';
    this.#now = options.now ?? (() => new Date());
    const secrets = options.secrets ?? [];
    this.#secrets = typeof secrets === 'function' ? secrets : () => secrets;
    this.#insert = db.prepare(
      `INSERT INTO audit_log (seq, ts, actor, front_end, tool, input, decision, event, approval_id,
         request_ids, outcome, error, duration_ms, evidence, prev_hash, hash)
       VALUES (@seq, @ts, @actor, @frontEnd, @tool, @input, @decision, @event, @approvalId,
         @requestIds, @outcome, @error, @durationMs, @evidence, @prevHash, @hash)`,
    );
    this.#head = db.prepare(headSql);
    // Appends after `head`, returning the new head: a batch chains its entries without reading the
    // head back for each (the insert trigger still checks every link).
    const put = (unsealed: Unsealed, head: AuditAnchor): AuditEntry => {
      const content: AuditContent = { seq: head.seq + 1, ts: this.#now().toISOString(), ...unsealed };
      const input = canonicalJson(content.input);
      const hash = entryHash(head.hash, { ...content, input: new CanonicalText(input) });
      this.#insert.run({
        ...content,
        input,
        evidence: content.evidence === undefined ? null : canonicalJson(content.evidence),
        requestIds: JSON.stringify(content.requestIds),
        prevHash: head.hash,
        hash,
      });
      return { ...content, prevHash: head.hash, hash };
    };
    const seal = db.transaction((unsealed: Unsealed): AuditEntry => put(unsealed, this.#readHead()));
    this.#seal = (unsealed) => seal.immediate(unsealed);
    const sealMany = db.transaction((batch: readonly Unsealed[]): AuditEntry[] => {
      let head = this.#readHead();
      return batch.map((unsealed) => {
        const entry = put(unsealed, head);
        head = { seq: entry.seq, hash: entry.hash };
        return entry;
      });
    });
    this.#sealMany = (batch) => sealMany.immediate(batch);
  }

  /**
   * Validates, redacts (again: secret fields, secret values wherever they occur, card numbers,
   * bearer tokens) and appends one entry. Throws `AuditInputError` naming the fields at fault.
   */
  append(input: AuditEntryInput, options: AppendOptions = {}): AuditEntry {
    const unsealed = this.#prepare(input, options);
    this.flush();
    return this.#seal(unsealed);
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
          this.flush();
        });
        return;
      }
      this.#queues.relaxed.push(queued);
      if (this.#queues.relaxed.length >= RELAXED_MAX) this.flush();
      else this.#relaxedTimer ??= setTimeout(() => this.flush(), RELAXED_WINDOW_MS);
    });
  }

  /**
   * Commits every entry still waiting (relaxed first: they were recorded earlier). Audit reads of
   * this log call it, and whoever closes the database must call it first.
   */
  flush(): void {
    if (this.#relaxedTimer !== undefined) {
      clearTimeout(this.#relaxedTimer);
      this.#relaxedTimer = undefined;
    }
    const { durable, relaxed } = this.#queues;
    if (durable.length === 0 && relaxed.length === 0) return;
    this.#queues = { durable: [], relaxed: [] };
    if (relaxed.length > 0) this.#commit(relaxed, false);
    if (durable.length > 0) this.#commit(durable, true);
  }

  #commit(batch: Queued[], durable: boolean): void {
    let sealed: AuditEntry[];
    try {
      if (!durable) this.#db.pragma('synchronous = NORMAL');
      try {
        sealed = this.#sealMany(batch.map((q) => q.unsealed));
      } finally {
        if (!durable) this.#db.pragma(`synchronous = ${this.#synchronous}`);
      }
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    for (const [i, queued] of batch.entries()) queued.resolve(sealed[i] as AuditEntry);
  }

  /** The newest entry's seq and hash (seq 0 and 64 zeros when empty): an anchor to keep elsewhere. */
  head(): AuditAnchor {
    this.flush();
    return this.#readHead();
  }

  #readHead(): AuditAnchor {
    const row = this.#head.get() as { seq: number; hash: string } | undefined;
    return row ?? { seq: 0, hash: GENESIS_HASH };
  }

  /** The newest `n` entries, oldest first. */
  tail(n = 20): AuditEntry[] {
    return this.list({ limit: n, order: 'desc' }).reverse();
  }

  /** Entries matching the filter, in `order` (default oldest first), at most `limit` (default 100). */
  list(filter: AuditFilter = {}): AuditEntry[] {
    this.flush();
    const { sql, params } = selectEntries(filter, DEFAULT_LIST_LIMIT);
    return this.#db
      .prepare(sql)
      .all(...params)
      .map((row) => entryOf(row));
  }

  /**
   * Re-computes the whole chain. Pass an anchor (`head()` recorded elsewhere earlier) to also
   * detect a rewritten chain or entries removed from the end, which the chain alone cannot.
   */
  verify(anchor?: AuditAnchor): AuditVerifyResult {
    this.flush();
    return verifyRows(this.#db.prepare('SELECT * FROM audit_log ORDER BY seq').iterate(), anchor);
  }

  /** Every entry, oldest first, read as it is needed (for checks over the whole log). */
  *entries(): Generator<AuditEntry> {
    this.flush();
    for (const row of this.#db.prepare('SELECT * FROM audit_log ORDER BY seq').iterate()) yield entryOf(row);
  }

  /**
   * Writes matching entries (all by default, oldest first) as JSON lines: canonical JSON with
   * `prevHash` and `hash`, so an export can be checked without the database. Returns the count.
   */
  exportJsonl(write: (line: string) => void, filter: AuditFilter = {}): number {
    this.flush();
    const { sql, params } = selectEntries(filter, undefined);
    let count = 0;
    for (const row of this.#db.prepare(sql).iterate(...params)) {
      write(canonicalJson(entryOf(row)));
      count += 1;
    }
    return count;
  }
}
