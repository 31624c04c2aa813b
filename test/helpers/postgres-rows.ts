import type { NewFeedEvent } from '../../src/core/store/postgres/feed.js';
import type { Queryable } from '../../src/core/store/postgres/pool.js';

/** A minimal approval row (feed events and leases refer to one). */
export async function insertApproval(q: Queryable, id: string, state = 'pending'): Promise<void> {
  await q.query(
    `INSERT INTO approvals (id, tool, input_json, fingerprint, requester_id, requester_json, requester_person,
       origin_json, state, required_approvers, approver_role, policy_rule, policy_reason, request_id,
       created_at, updated_at, expires_at)
     VALUES ($1, 'create_payout', '{}', $1, 'cli:ops', '{}', 'ops', '{}', $2, 1, 'approver', 'payouts',
       'payouts need one approver', $1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
    [id, state],
  );
}

/** A feed event of that approval. */
export const feedEvent = (approvalId: string, detail?: string): NewFeedEvent => ({
  approvalId,
  kind: 'voted',
  at: '2026-01-01T00:00:01Z',
  state: 'pending',
  attempt: 1,
  actor: 'slack:U0ALICE',
  ...(detail === undefined ? {} : { detail }),
});

/**
 * Reads again until `done`: the feed's horizon is the whole server's oldest running transaction, so
 * a transaction of another test file (another database) may hold it back for a moment.
 */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
