import type { AuditAnchor, AuditVerifyResult } from '../../audit/schema.js';
import { ChainCheck } from '../../audit/verify.js';
import { auditRowsAfter } from './audit.js';
import type { Queryable } from './pool.js';

const PAGE = 5_000;

/**
 * `bankops audit verify` on PostgreSQL: the rows, read page by page in seq order, through the same
 * check as SQLite's (../../audit/verify.ts), one page in memory at a time.
 */
export async function verifyAuditLog(q: Queryable, anchor?: AuditAnchor): Promise<AuditVerifyResult> {
  const check = new ChainCheck(anchor);
  let after = 0;
  for (;;) {
    const page = await auditRowsAfter(q, after, PAGE);
    for (const row of page) check.add(row);
    const last = page.at(-1) as { seq: number } | undefined;
    if (last === undefined || page.length < PAGE) break;
    after = last.seq;
  }
  return check.result();
}
