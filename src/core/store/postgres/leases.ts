import type pg from 'pg';
import type { Queryable } from './pool.js';

/** How long a replica holds an approval's execution without renewing it. */
export const DEFAULT_LEASE_MS = 30_000;

export type LeaseClaim =
  | {
      claimed: true;
      until: Date /** The replica whose lease ran out, when this took over. */;
      takenOverFrom?: string;
    }
  | { claimed: false; holder: string; until: Date }
  | { claimed: false; holder: undefined; missing: true };

/**
 * Claims the execution of an approval for `owner` (a replica's name), in the caller's transaction
 * (the one that also moves it to `executing`, or reads its checkpoints before re-sending). The row
 * lock makes claimers queue; the first wins. A lease that ran out is taken over: its holder is
 * presumed dead, and the new owner continues with the same request id and checkpoints. Times are
 * the database's clock, which every replica shares, never a replica's own.
 */
export async function claimLease(
  client: pg.ClientBase,
  approvalId: string,
  owner: string,
  leaseMs = DEFAULT_LEASE_MS,
): Promise<LeaseClaim> {
  const current = await client.query<{ owner: string | null; lease_until: Date | null; expired: boolean }>(
    `SELECT owner, lease_until, coalesce(lease_until <= clock_timestamp(), true) AS expired
     FROM approvals WHERE id = $1 FOR UPDATE`,
    [approvalId],
  );
  const row = current.rows[0];
  if (row === undefined) return { claimed: false, holder: undefined, missing: true };
  if (row.owner !== null && row.owner !== owner && !row.expired) {
    return { claimed: false, holder: row.owner, until: row.lease_until as Date };
  }
  const set = await client.query<{ until: Date }>(
    `UPDATE approvals SET owner = $2, lease_until = clock_timestamp() + $3 * interval '1 millisecond'
     WHERE id = $1 RETURNING lease_until AS until`,
    [approvalId, owner, leaseMs],
  );
  const until = set.rows[0]?.until as Date;
  const takenOver = row.owner !== null && row.owner !== owner;
  return { claimed: true, until, ...(takenOver ? { takenOverFrom: row.owner as string } : {}) };
}

/**
 * Extends the lease while the execution runs (every third of the lease, say). Undefined when this
 * owner no longer holds it (another replica took over): the caller must stop, not send again.
 */
export async function renewLease(
  q: Queryable,
  approvalId: string,
  owner: string,
  leaseMs = DEFAULT_LEASE_MS,
): Promise<Date | undefined> {
  const renewed = await q.query<{ until: Date }>(
    `UPDATE approvals SET lease_until = clock_timestamp() + $3 * interval '1 millisecond'
     WHERE id = $1 AND owner = $2 RETURNING lease_until AS until`,
    [approvalId, owner, leaseMs],
  );
  return renewed.rows[0]?.until;
}

/** Gives the lease up (the execution ended); false when this owner did not hold it. */
export async function releaseLease(q: Queryable, approvalId: string, owner: string): Promise<boolean> {
  const released = await q.query(
    'UPDATE approvals SET owner = NULL, lease_until = NULL WHERE id = $1 AND owner = $2',
    [approvalId, owner],
  );
  return released.rowCount === 1;
}

/** Executing approvals whose lease ran out (or that never had one), oldest first: work to take over. */
export async function expiredLeases(q: Queryable, limit = 50): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM approvals
     WHERE state = 'executing' AND (lease_until IS NULL OR lease_until <= clock_timestamp())
     ORDER BY lease_until NULLS FIRST, id LIMIT $1`,
    [limit],
  );
  return rows.rows.map((row) => row.id);
}
