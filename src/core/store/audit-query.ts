import { AuditFilterError } from '../audit/errors.js';
import type { AuditFilter } from '../audit/schema.js';

export const DEFAULT_LIST_LIMIT = 100;

export interface AuditQuery {
  sql: string;
  params: (string | number)[];
}

function instant(name: string, value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new AuditFilterError(`${name}: not a date or time`);
  return date.toISOString();
}

/** The SELECT for a filter, with `?` marks (each backend numbers them as it needs); `ts` is ISO 8601 UTC with milliseconds, so text order is time order. */
export function selectEntries(filter: AuditFilter, defaultLimit: number | undefined): AuditQuery {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.since !== undefined) {
    where.push('ts >= ?');
    params.push(instant('since', filter.since));
  }
  if (filter.until !== undefined) {
    where.push('ts < ?');
    params.push(instant('until', filter.until));
  }
  if (filter.afterSeq !== undefined) {
    if (!Number.isInteger(filter.afterSeq)) throw new AuditFilterError('afterSeq: must be an integer');
    where.push('seq > ?');
    params.push(filter.afterSeq);
  }
  for (const [column, value] of [
    ['tool', filter.tool],
    ['actor', filter.actor],
    ['approval_id', filter.approvalId],
  ] as const) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    params.push(value);
  }
  let sql = 'SELECT * FROM audit_log';
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  sql += ` ORDER BY seq ${filter.order === 'desc' ? 'DESC' : 'ASC'}`;
  const limit = filter.limit ?? defaultLimit;
  if (limit !== undefined) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new AuditFilterError('limit: must be a whole number ≥ 1');
    sql += ' LIMIT ?';
    params.push(limit);
  }
  return { sql, params };
}
