import type { Queryable } from './pool.js';

/** How long a replica may take to post an approval's message before another may try (a crash mid-post). */
export const MESSAGE_CLAIM_MS = 15_000;

export interface PostedMessage {
  approvalId: string;
  channel: string;
  ts: string;
}

/**
 * Before posting an approval's message to Slack: the message if one was posted, `claimed` when
 * this replica may post it now, `busy` when another is posting it. One statement, a compare-and-swap
 * on the row (the claim is taken only if no message exists and no live claim does), so replicas
 * that see the same approval at the same moment post it once. Claims run on the database's clock.
 */
export async function claimApprovalMessage(
  q: Queryable,
  approvalId: string,
  channel: string,
  claimMs = MESSAGE_CLAIM_MS,
): Promise<PostedMessage | 'claimed' | 'busy'> {
  const taken = await q.query(
    `INSERT INTO slack_approval_messages (approval_id, channel, claimed_until)
     VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
     ON CONFLICT (approval_id) DO UPDATE
       SET channel = excluded.channel, claimed_until = excluded.claimed_until
       WHERE slack_approval_messages.ts IS NULL AND slack_approval_messages.claimed_until <= clock_timestamp()`,
    [approvalId, channel, claimMs],
  );
  if (taken.rowCount === 1) return 'claimed';
  return (await approvalMessage(q, approvalId)) ?? 'busy';
}

/** The message of an approval, once posted. */
export async function approvalMessage(q: Queryable, approvalId: string): Promise<PostedMessage | undefined> {
  const rows = await q.query<{ channel: string; ts: string | null }>(
    'SELECT channel, ts FROM slack_approval_messages WHERE approval_id = $1',
    [approvalId],
  );
  const row = rows.rows[0];
  return row?.ts == null ? undefined : { approvalId, channel: row.channel, ts: row.ts };
}

/** Records the `ts` Slack gave the message, at once: a crash after this posts nothing twice. */
export async function recordPosted(
  q: Queryable,
  approvalId: string,
  ts: string,
  rendered: string,
  nowMs = Date.now(),
): Promise<void> {
  await q.query(
    'UPDATE slack_approval_messages SET ts = $2, posted_at = $3, rendered = $4 WHERE approval_id = $1 AND ts IS NULL',
    [approvalId, ts, nowMs, rendered],
  );
}

/** Records content about to be sent; false when the message already shows exactly that. */
export async function recordRendered(q: Queryable, approvalId: string, rendered: string): Promise<boolean> {
  const changed = await q.query(
    `UPDATE slack_approval_messages SET rendered = $2
     WHERE approval_id = $1 AND ts IS NOT NULL AND rendered IS DISTINCT FROM $2`,
    [approvalId, rendered],
  );
  return changed.rowCount === 1;
}

/** Posting failed: another attempt, here or in another replica, may post it at once. */
export async function releaseMessageClaim(q: Queryable, approvalId: string): Promise<void> {
  await q.query(
    "UPDATE slack_approval_messages SET claimed_until = '-infinity' WHERE approval_id = $1 AND ts IS NULL",
    [approvalId],
  );
}
