import type { AuditAnchor, AuditVerifyResult } from '../../audit/schema.js';
import { verifyRows } from '../../audit/verify.js';
import { auditRowsAfter } from './audit.js';
import type { Queryable } from './pool.js';

const PAGE = 5_000;

/**
 * `bankops audit verify` on PostgreSQL: the rows, read page by page in seq order, through the same
 * check as SQLite's (../../audit/verify.ts). The check walks a synchronous list, so the whole log
 * is held in memory while it runs.
 */
export async function verifyAuditLog(q: Queryable, anchor?: AuditAnchor): Promise<AuditVerifyResult> {
  const rows: unknown[] = [];
  for (;;) {
    const last = rows.at(-1) as { seq: number } | undefined;
    const page = await auditRowsAfter(q, last?.seq ?? 0, PAGE);
    rows.push(...page);
    if (page.length < PAGE) break;
  }
  return verifyRows(rows, anchor);
}
