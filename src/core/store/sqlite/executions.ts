import type { ExecutionStore, KeyedRun } from '../../executions.js';
import type { ExecuteResult } from '../../results.js';
import { type ExecutionRow, keyedRunOf } from '../rows/executions.js';
import { type Db, migrate } from './database.js';
import { sqliteJson } from './json.js';

export const EXECUTIONS_SCHEMA = [
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

export function migrateExecutions(db: Db): void {
  migrate(db, 'executor-1', EXECUTIONS_SCHEMA);
}

/** Direct runs that carried an idempotency key, in SQLite. */
export class SqliteExecutionStore implements ExecutionStore {
  readonly #get;
  readonly #reserve;
  readonly #finish;

  /** `onCommitted` runs work that cannot be done inside a transaction once it has committed. */
  constructor(
    private readonly db: Db,
    private readonly onCommitted: (work: () => void) => void,
  ) {
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

  async forgetUnkeyed(tools: readonly string[]): Promise<void> {
    if (tools.length === 0) return;
    const marks = tools.map(() => '?').join(', ');
    const stale = this.db
      .prepare(
        `SELECT count(*) AS n FROM executions WHERE tool IN (${marks}) AND fingerprint NOT LIKE 'k1:%'`,
      )
      .get(...tools) as { n: number };
    if (stale.n === 0) return;
    this.db.pragma('secure_delete = ON');
    this.db
      .prepare(`DELETE FROM executions WHERE tool IN (${marks}) AND fingerprint NOT LIKE 'k1:%'`)
      .run(...tools);
    // The deleted pages are zeroed in the WAL; a checkpoint (outside the transaction) writes them
    // over the main file's too.
    this.onCommitted(() => this.db.pragma('wal_checkpoint(TRUNCATE)'));
  }

  async get(actor: string, tool: string, key: string): Promise<KeyedRun | undefined> {
    const row = this.#get.get(actor, tool, key) as ExecutionRow | undefined;
    return row === undefined ? undefined : keyedRunOf(sqliteJson, row);
  }

  async reserve(
    actor: string,
    tool: string,
    key: string,
    fingerprint: string,
    requestId: string,
  ): Promise<void> {
    this.#reserve.run(actor, tool, key, fingerprint, requestId, new Date().toISOString());
  }

  async finish(actor: string, tool: string, key: string, result: ExecuteResult): Promise<void> {
    this.#finish.run(sqliteJson.write(result), actor, tool, key);
  }
}
