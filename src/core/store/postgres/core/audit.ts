import type pg from 'pg';
import type { AuditRow } from '../../../audit/rows.js';
import type { AuditAnchor, AuditFilter } from '../../../audit/schema.js';
import { AUDIT_COLUMNS, type AuditStore } from '../../../audit/store.js';
import { selectEntries } from '../../audit-query.js';
import { auditHead } from '../audit.js';

const COLUMNS = AUDIT_COLUMNS;

const TYPES = ['bigint', ...Array<string>(11).fill('text'), 'float8', 'text', 'text', 'text', 'text'];

/**
 * The one audit chain in PostgreSQL, as a core transaction sees it. In a write transaction
 * `head()` takes the chain's advisory lock (`audit_lock_head()`, held to the end of the
 * transaction, after the core's lock), so no appender of any replica or path writes between this
 * read and the commit: one chain, one order. The audit log's group commit appends in one statement
 * instead (./audit-append.ts).
 */
export class PgAuditStore implements AuditStore {
  constructor(
    private readonly client: pg.ClientBase,
    private readonly write: boolean,
  ) {}

  async head(): Promise<AuditAnchor> {
    if (!this.write) return auditHead(this.client);
    const rows = await this.client.query<AuditAnchor>('SELECT seq, hash FROM audit_lock_head()');
    return rows.rows[0] as AuditAnchor;
  }

  async insert(rows: readonly AuditRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.client.query(
      `INSERT INTO audit_log (${COLUMNS.join(', ')})
       SELECT * FROM unnest(${TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`,
      COLUMNS.map((column) => rows.map((row) => row[column])),
    );
  }

  async select(filter: AuditFilter, defaultLimit: number | undefined): Promise<unknown[]> {
    // The same filter as SQLite's, its `?` marks numbered for PostgreSQL.
    const { sql, params } = selectEntries(filter, defaultLimit);
    let mark = 0;
    const text = sql.replace('SELECT *', `SELECT ${COLUMNS.join(', ')}`).replace(/\?/g, () => `$${++mark}`);
    return (await this.client.query(text, params)).rows;
  }
}
