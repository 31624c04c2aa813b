import type pg from 'pg';
import type { AuditRow } from '../../../audit/rows.js';
import type { AuditAnchor, AuditFilter } from '../../../audit/schema.js';
import { AUDIT_COLUMNS, type AuditStore } from '../../../audit/store.js';
import { selectEntries } from '../../audit-query.js';
import { auditHead } from '../audit.js';

const COLUMNS = AUDIT_COLUMNS;

const TYPES = ['bigint', ...Array<string>(11).fill('text'), 'float8', 'text', 'text', 'text'];

/**
 * How a transaction uses the chain: `read` only; `write`, a core transaction that may append (it
 * holds the core's lock already); `append`, the audit log's group commit, which commits without
 * waiting for the disk (../storage.ts waits for the WAL barrier when the batch is durable).
 */
export type PgAuditMode = 'read' | 'write' | 'append';

/**
 * The one audit chain in PostgreSQL. In a writing transaction `head()` takes the chain's advisory
 * lock (`audit_lock_head()`, held to the end of the transaction), so no appender of any replica or
 * path writes between this read and the commit: one chain, one order.
 */
export class PgAuditStore implements AuditStore {
  constructor(
    private readonly client: pg.ClientBase,
    private readonly mode: PgAuditMode,
  ) {}

  async head(): Promise<AuditAnchor> {
    if (this.mode === 'read') return auditHead(this.client);
    // In the group commit, one round trip: the commit's setting (this transaction's) and the head.
    const rows = await this.client.query<AuditAnchor>(
      this.mode === 'append'
        ? "SELECT set_config('synchronous_commit', 'off', true), seq, hash FROM audit_lock_head()"
        : 'SELECT seq, hash FROM audit_lock_head()',
    );
    const row = rows.rows[0] as AuditAnchor;
    return { seq: row.seq, hash: row.hash };
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
