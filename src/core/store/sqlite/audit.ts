import type { Statement } from 'better-sqlite3';
import { GENESIS_HASH } from '../../audit/hash.js';
import type { AuditRow } from '../../audit/rows.js';
import type { AuditAnchor, AuditFilter } from '../../audit/schema.js';
import { AUDIT_COLUMNS, type AuditStore } from '../../audit/store.js';
import { selectEntries } from '../audit-query.js';
import type { Db } from './database.js';

/** The audit chain in SQLite: the storage's write lock holds the head; triggers keep it append-only. */
export class SqliteAuditStore implements AuditStore {
  readonly #insert: Statement;
  readonly #head: Statement<[], unknown>;

  constructor(private readonly db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')}) VALUES (${AUDIT_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.#head = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
  }

  async head(): Promise<AuditAnchor> {
    const row = this.#head.get() as { seq: number; hash: string } | undefined;
    return row ?? { seq: 0, hash: GENESIS_HASH };
  }

  async insert(rows: readonly AuditRow[]): Promise<void> {
    // Positional values, in the columns' order (a little cheaper than binding sixteen names).
    for (const row of rows) this.#insert.run(AUDIT_COLUMNS.map((column) => row[column]));
  }

  async select(filter: AuditFilter, defaultLimit: number | undefined): Promise<unknown[]> {
    const { sql, params } = selectEntries(filter, defaultLimit);
    return this.db.prepare(sql).all(...params);
  }
}
