import type { Statement } from 'better-sqlite3';
import { canonicalJson } from '../canonical-json.js';
import type { Db } from '../db.js';
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
  readonly #now: () => Date;
  readonly #secrets: () => readonly string[];
  readonly #insert: Statement;
  readonly #head: Statement<[], unknown>;
  readonly #seal: (unsealed: Unsealed) => AuditEntry;

  constructor(db: Db, options: AuditLogOptions = {}) {
    migrateAuditLog(db);
    this.#db = db;
    this.#now = options.now ?? (() => new Date());
    const secrets = options.secrets ?? [];
    this.#secrets = typeof secrets === 'function' ? secrets : () => secrets;
    this.#insert = db.prepare(
      `INSERT INTO audit_log (seq, ts, actor, front_end, tool, input, decision, event, approval_id,
         request_ids, outcome, error, duration_ms, prev_hash, hash)
       VALUES (@seq, @ts, @actor, @frontEnd, @tool, @input, @decision, @event, @approvalId,
         @requestIds, @outcome, @error, @durationMs, @prevHash, @hash)`,
    );
    this.#head = db.prepare(headSql);
    const seal = db.transaction((unsealed: Unsealed): AuditEntry => {
      const { seq: last, hash: prevHash } = this.head();
      const content: AuditContent = { seq: last + 1, ts: this.#now().toISOString(), ...unsealed };
      const hash = entryHash(prevHash, content);
      this.#insert.run({
        ...content,
        input: canonicalJson(content.input),
        requestIds: JSON.stringify(content.requestIds),
        prevHash,
        hash,
      });
      return { ...content, prevHash, hash };
    });
    this.#seal = (unsealed) => seal.immediate(unsealed);
  }

  /**
   * Validates, redacts (again: secret fields, secret values wherever they occur, card numbers,
   * bearer tokens) and appends one entry. Throws `AuditInputError` naming the fields at fault.
   */
  append(input: AuditEntryInput, options: AppendOptions = {}): AuditEntry {
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
    return this.#seal({
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
    });
  }

  /** The newest entry's seq and hash (seq 0 and 64 zeros when empty): an anchor to keep elsewhere. */
  head(): AuditAnchor {
    const row = this.#head.get() as { seq: number; hash: string } | undefined;
    return row ?? { seq: 0, hash: GENESIS_HASH };
  }

  /** The newest `n` entries, oldest first. */
  tail(n = 20): AuditEntry[] {
    return this.list({ limit: n, order: 'desc' }).reverse();
  }

  /** Entries matching the filter, in `order` (default oldest first), at most `limit` (default 100). */
  list(filter: AuditFilter = {}): AuditEntry[] {
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
    return verifyRows(this.#db.prepare('SELECT * FROM audit_log ORDER BY seq').iterate(), anchor);
  }

  /**
   * Writes matching entries (all by default, oldest first) as JSON lines: canonical JSON with
   * `prevHash` and `hash`, so an export can be checked without the database. Returns the count.
   */
  exportJsonl(write: (line: string) => void, filter: AuditFilter = {}): number {
    const { sql, params } = selectEntries(filter, undefined);
    let count = 0;
    for (const row of this.#db.prepare(sql).iterate(...params)) {
      write(canonicalJson(entryOf(row)));
      count += 1;
    }
    return count;
  }
}
