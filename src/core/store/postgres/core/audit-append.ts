import type { AuditAnchor, AuditEntry } from '../../../audit/schema.js';
import { type Prepared, sealAfter } from '../../../audit/seal.js';
import { internalError } from '../../../errors.js';
import type { Queryable } from '../pool.js';

interface Appended {
  head_seq: number;
  head_hash: string;
  last_hash: string | null;
  already: boolean;
}

const column = <T>(batch: readonly Prepared[], pick: (entry: Prepared) => T): T[] => batch.map(pick);

/**
 * Appends a batch at the head of the one chain in one statement (`audit_append`,
 * ../schema/audit-append.ts): the chain's lock is taken and released on the server, within the
 * statement's own transaction, which commits without waiting for the disk. Returns the sealed
 * entries, or those of `unsure` when that earlier batch turns out to be committed already.
 */
export async function appendAuditBatch(
  q: Queryable,
  batch: readonly Prepared[],
  unsure: readonly Prepared[] | undefined,
): Promise<{ entries: AuditEntry[]; of: 'batch' | 'unsure' }> {
  const last = unsure?.at(-1);
  const result = await q.query<Appended>(
    `SELECT head_seq, head_hash, last_hash, already FROM audit_append($1::text[], $2::text[],
       $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::text[], $12::float8[], $13::text[], $14::text[], $15::text[], $16, $17, $18, $19::text[])`,
    [
      column(batch, (e) => e.content.ts),
      column(batch, (e) => e.content.actor),
      column(batch, (e) => e.content.frontEnd),
      column(batch, (e) => e.content.tool),
      column(batch, (e) => e.input),
      column(batch, (e) => e.content.decision),
      column(batch, (e) => e.content.event),
      column(batch, (e) => e.content.approvalId),
      column(batch, (e) => JSON.stringify(e.content.requestIds)),
      column(batch, (e) => e.content.outcome),
      column(batch, (e) => e.content.error),
      column(batch, (e) => e.content.durationMs),
      column(batch, (e) => e.evidence),
      column(batch, (e) => e.hashed[0]),
      column(batch, (e) => e.hashed[1]),
      last?.hashed[0] ?? null,
      last?.hashed[1] ?? null,
      unsure?.length ?? null,
      column(batch, (e) => e.policy),
    ],
  );
  const row = result.rows[0] as Appended;
  const head: AuditAnchor = { seq: row.head_seq, hash: row.head_hash };
  if (row.already && unsure !== undefined) return { entries: sealAfter(head, unsure).entries, of: 'unsure' };
  const { entries } = sealAfter(head, batch);
  // The server chained the batch itself; both must agree, or `audit verify` would not.
  if ((entries.at(-1)?.hash ?? head.hash) !== (row.last_hash ?? head.hash))
    throw internalError(`audit entries ${head.seq + 1}… were chained differently by the database`);
  return { entries, of: 'batch' };
}
