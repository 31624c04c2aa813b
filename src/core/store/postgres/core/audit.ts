import type pg from 'pg';
import type { AuditRow } from '../../../audit/rows.js';
import type { AuditAnchor, AuditFilter } from '../../../audit/schema.js';
import { AUDIT_COLUMNS, type AuditStore } from '../../../audit/store.js';
import { selectEntries } from '../../audit-query.js';
import { auditHead } from '../audit.js';

const COLUMNS = AUDIT_COLUMNS;

const TYPES = ['bigint', ...Array<string>(11).fill('text'), 'float8', 'text', 'text', 'text', 'text'];

/** Rows per INSERT: a statement takes at most 65,535 parameters. */
const ROWS_PER_INSERT = Math.floor(65_535 / COLUMNS.length);

/** `INSERT … VALUES ($1::bigint, $2::text, …), (…)`: `count` rows of parameters, numbered from 1. */
const insertOf = (count: number): string =>
  `INSERT INTO audit_log (${COLUMNS.join(', ')}) VALUES ${Array.from(
    { length: count },
    (_, row) => `(${TYPES.map((type, i) => `$${row * TYPES.length + i + 1}::${type}`).join(', ')})`,
  ).join(', ')}`;

/** A transaction's append is one entry: its statement made once. */
const INSERT_ONE = insertOf(1);

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

  /**
   * A VALUES list, not `unnest` of one array per column: that materialises each column's array in
   * a tuplestore of its own, 17 of them, about 270 KB a statement, which the server then takes
   * from the operating system and gives back at every append (a backend whose allocator had raised
   * its thresholds did so with `brk`, doubling the statement's time).
   */
  async insert(rows: readonly AuditRow[]): Promise<void> {
    for (let first = 0; first < rows.length; first += ROWS_PER_INSERT) {
      const batch = rows.slice(first, first + ROWS_PER_INSERT);
      await this.client.query(
        batch.length === 1 ? INSERT_ONE : insertOf(batch.length),
        batch.flatMap((row) => COLUMNS.map((column) => row[column])),
      );
    }
  }

  async select(filter: AuditFilter, defaultLimit: number | undefined): Promise<unknown[]> {
    // The same filter as SQLite's, its `?` marks numbered for PostgreSQL.
    const { sql, params } = selectEntries(filter, defaultLimit);
    let mark = 0;
    const text = sql.replace('SELECT *', `SELECT ${COLUMNS.join(', ')}`).replace(/\?/g, () => `$${++mark}`);
    return (await this.client.query(text, params)).rows;
  }
}
