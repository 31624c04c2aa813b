import { type Db, migrate } from './db.js';
import type { ExecuteResult } from './results.js';

const MIGRATION = [
  `CREATE TABLE IF NOT EXISTS executions (
     actor TEXT NOT NULL,
     tool TEXT NOT NULL,
     idempotency_key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     request_id TEXT NOT NULL,
     result_json TEXT,
     created_at TEXT NOT NULL,
     PRIMARY KEY (actor, tool, idempotency_key)
   )`,
];

export interface ExecutionRow {
  fingerprint: string;
  request_id: string;
  result_json: string | null;
}

/**
 * The SQL of direct runs that carried an idempotency key: which input a key stands for, its request
 * id, and the first successful result (redacted), so a retry returns it instead of acting twice.
 */
export class ExecutionStore {
  readonly #get;
  readonly #reserve;
  readonly #finish;

  readonly #db: Db;

  constructor(db: Db) {
    migrate(db, 'executor-1', MIGRATION);
    this.#db = db;
    this.#get = db.prepare(
      'SELECT fingerprint, request_id, result_json FROM executions WHERE actor = ? AND tool = ? AND idempotency_key = ?',
    );
    this.#reserve = db.prepare(
      `INSERT OR IGNORE INTO executions (actor, tool, idempotency_key, fingerprint, request_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#finish = db.prepare(
      'UPDATE executions SET result_json = ? WHERE actor = ? AND tool = ? AND idempotency_key = ?',
    );
  }

  /**
   * Deletes the rows of these tools whose fingerprint was not made with the install's key (written
   * by an earlier version), with their bytes overwritten, not only unlinked.
   */
  forgetUnkeyed(tools: readonly string[]): void {
    if (tools.length === 0) return;
    const marks = tools.map(() => '?').join(', ');
    const stale = this.#db
      .prepare(
        `SELECT count(*) AS n FROM executions WHERE tool IN (${marks}) AND fingerprint NOT LIKE 'k1:%'`,
      )
      .get(...tools) as { n: number };
    if (stale.n === 0) return;
    this.#db.pragma('secure_delete = ON');
    this.#db
      .prepare(`DELETE FROM executions WHERE tool IN (${marks}) AND fingerprint NOT LIKE 'k1:%'`)
      .run(...tools);
    // The deleted pages are zeroed in the WAL; a checkpoint writes them over the main file's too.
    this.#db.pragma('wal_checkpoint(TRUNCATE)');
  }

  get(actor: string, tool: string, key: string): ExecutionRow | undefined {
    return this.#get.get(actor, tool, key) as ExecutionRow | undefined;
  }

  /** Binds the key to this input and request id (the first caller wins). */
  reserve(actor: string, tool: string, key: string, fingerprint: string, requestId: string): void {
    this.#reserve.run(actor, tool, key, fingerprint, requestId, new Date().toISOString());
  }

  /** Keeps the first success, already redacted, for retries. */
  finish(actor: string, tool: string, key: string, result: ExecuteResult): void {
    this.#finish.run(JSON.stringify(result), actor, tool, key);
  }
}
