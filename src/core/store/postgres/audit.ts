import { GENESIS_HASH } from '../../audit/hash.js';
import type { AuditAnchor } from '../../audit/schema.js';
import { AUDIT_COLUMNS } from '../../audit/store.js';
import type { Queryable } from './pool.js';

const COLUMNS = AUDIT_COLUMNS.join(', ');

/** The newest entry's seq and hash (seq 0 and the genesis hash when the log is empty). */
export async function auditHead(q: Queryable): Promise<AuditAnchor> {
  const rows = await q.query<AuditAnchor>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
  return rows.rows[0] ?? { seq: 0, hash: GENESIS_HASH };
}

/** Rows in seq order after `afterSeq`, as stored (for `verifyRows` and exports). */
export async function auditRowsAfter(q: Queryable, afterSeq: number, limit: number): Promise<unknown[]> {
  const rows = await q.query(`SELECT ${COLUMNS} FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2`, [
    afterSeq,
    limit,
  ]);
  return rows.rows;
}
