import type { Statement } from 'better-sqlite3';
import { GENESIS_HASH } from '../../audit/hash.js';
import type { AuditRow } from '../../audit/rows.js';
import type { AuditAnchor, AuditFilter } from '../../audit/schema.js';
import type { AuditStore } from '../../audit/store.js';
import type { Db } from '../../db.js';
import { selectEntries } from '../audit-query.js';

/** The audit chain in SQLite: the storage's write lock holds the head; triggers keep it append-only. */
export class SqliteAuditStore implements AuditStore {
  readonly #insert: Statement;
  readonly #head: Statement<[], unknown>;

  constructor(private readonly db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO audit_log (seq, ts, actor, front_end, tool, input, decision, event, approval_id,
         request_ids, outcome, error, duration_ms, evidence, prev_hash, hash)
       VALUES (@seq, @ts, @actor, @front_end, @tool, @input, @decision, @event, @approval_id,
         @request_ids, @outcome, @error, @duration_ms, @evidence, @prev_hash, @hash)`,
    );
    this.#head = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
  }

  async head(): Promise<AuditAnchor> {
    const row = this.#head.get() as { seq: number; hash: string } | undefined;
    return row ?? { seq: 0, hash: GENESIS_HASH };
  }

  async insert(rows: readonly AuditRow[]): Promise<void> {
    for (const row of rows) this.#insert.run(row);
  }

  async select(filter: AuditFilter, defaultLimit: number | undefined): Promise<unknown[]> {
    const { sql, params } = selectEntries(filter, defaultLimit);
    return this.db.prepare(sql).all(...params);
  }
}
