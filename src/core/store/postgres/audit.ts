import type pg from 'pg';
import { entryHash, GENESIS_HASH } from '../../audit/hash.js';
import type { AuditAnchor, AuditContent, AuditEntry } from '../../audit/schema.js';
import { CanonicalText, canonicalJson } from '../../canonical-json.js';
import type { Queryable } from './pool.js';

/** An entry validated and redacted by the audit log, before it gets its place in the chain. */
export type AuditDraft = Omit<AuditContent, 'seq' | 'ts'>;

const COLUMNS = `seq, ts, actor, front_end, tool, input, decision, event, approval_id, request_ids, outcome,
  error, duration_ms, evidence, prev_hash, hash`;

/** The newest entry's seq and hash (seq 0 and the genesis hash when the log is empty). */
export async function auditHead(q: Queryable): Promise<AuditAnchor> {
  const rows = await q.query<AuditAnchor>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
  return rows.rows[0] ?? { seq: 0, hash: GENESIS_HASH };
}

/**
 * Appends entries at the head of the one chain, in the caller's transaction, and returns them
 * sealed. Appenders in every replica serialise on a transaction-level advisory lock taken before
 * the head is read (`audit_lock_head()`, schema/audit.ts), so each reads the head the previous one
 * committed: one chain, one order. `synchronousCommit: false` lets the transaction commit without
 * waiting for the disk (see audit-writer.ts). The
 * hashes are those of the SQLite log (../../audit/hash.ts), so one verification reads both. All
 * entries go in one INSERT; the table's trigger checks every link again.
 */
export async function appendAuditEntries(
  client: pg.ClientBase,
  drafts: readonly AuditDraft[],
  options: { now?: () => Date; synchronousCommit?: boolean } = {},
): Promise<AuditEntry[]> {
  if (drafts.length === 0) return [];
  const now = options.now ?? (() => new Date());
  const locked = await client.query<AuditAnchor>(
    "SELECT set_config('synchronous_commit', $1, true), seq, hash FROM audit_lock_head()",
    [options.synchronousCommit === false ? 'off' : 'on'],
  );
  let head = locked.rows[0] as AuditAnchor;
  const inputs: string[] = [];
  const entries = drafts.map((draft): AuditEntry => {
    const content: AuditContent = { seq: head.seq + 1, ts: now().toISOString(), ...draft };
    const input = canonicalJson(content.input);
    inputs.push(input);
    const hash = entryHash(head.hash, { ...content, input: new CanonicalText(input) });
    const entry = { ...content, prevHash: head.hash, hash };
    head = { seq: entry.seq, hash };
    return entry;
  });
  const column = <T>(pick: (entry: AuditEntry) => T): T[] => entries.map(pick);
  await client.query(
    `INSERT INTO audit_log (${COLUMNS})
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
       $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::float8[],
       $14::text[], $15::text[], $16::text[])`,
    [
      column((e) => e.seq),
      column((e) => e.ts),
      column((e) => e.actor),
      column((e) => e.frontEnd),
      column((e) => e.tool),
      inputs,
      column((e) => e.decision),
      column((e) => e.event),
      column((e) => e.approvalId),
      column((e) => JSON.stringify(e.requestIds)),
      column((e) => e.outcome),
      column((e) => e.error),
      column((e) => e.durationMs),
      column((e) => (e.evidence === undefined ? null : canonicalJson(e.evidence))),
      column((e) => e.prevHash),
      column((e) => e.hash),
    ],
  );
  return entries;
}

/** Rows in seq order after `afterSeq`, as stored (for `verifyRows` and exports). */
export async function auditRowsAfter(q: Queryable, afterSeq: number, limit: number): Promise<unknown[]> {
  const rows = await q.query(`SELECT ${COLUMNS} FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT $2`, [
    afterSeq,
    limit,
  ]);
  return rows.rows;
}
