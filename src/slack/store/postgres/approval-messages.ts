import { type ApprovalMessage, type ApprovalMessages, CLAIM_MS } from '../../approvals/store.js';
import { type PgStore, statement, withTransaction } from './database.js';
import { queueCalls } from './outbox.js';

interface Row {
  channel: string;
  ts: string | null;
}

/**
 * Approval messages in PostgreSQL. A claim runs until a `timestamptz`: from the caller's `now` when
 * one is given, else from the database's clock, so replicas on hosts whose clocks differ agree on
 * when a claim lapsed.
 */
export function postgresApprovalMessages(store: PgStore): ApprovalMessages {
  const get = async (approvalId: string): Promise<ApprovalMessage | undefined> => {
    const found = await statement<Row>(
      store,
      'SELECT channel, ts FROM slack_approval_messages WHERE approval_id = $1',
      [approvalId],
    );
    const row = found.rows[0];
    return row?.ts == null ? undefined : { approvalId, channel: row.channel, ts: row.ts };
  };

  return {
    get,
    /**
     * The upsert decides: a new row, or a row not posted whose claim lapsed, is this caller's; a
     * concurrent claimer waits on the row lock and re-checks the row as the winner left it. When it
     * loses, a second read tells a message posted meanwhile from a claim still held.
     */
    claim: async (approvalId, channel, now) => {
      const existing = await get(approvalId);
      if (existing !== undefined) return existing;
      const won = await statement(
        store,
        `INSERT INTO slack_approval_messages (approval_id, channel, claimed_until)
         VALUES ($1, $2,
           coalesce(to_timestamp($3::bigint / 1000.0), now()) + $4::bigint * interval '1 millisecond')
         ON CONFLICT (approval_id) DO UPDATE
           SET channel = excluded.channel, claimed_until = excluded.claimed_until
           WHERE slack_approval_messages.ts IS NULL
             AND slack_approval_messages.claimed_until <= coalesce(to_timestamp($3::bigint / 1000.0), now())`,
        [approvalId, channel, now ?? null, CLAIM_MS],
      );
      if (won.rowCount === 1) return 'claimed';
      return (await get(approvalId)) ?? 'busy';
    },
    posted: async (approvalId, ts, rendered, now = Date.now()) => {
      await statement(
        store,
        `UPDATE slack_approval_messages SET ts = $1, posted_at = $2, rendered = $3
         WHERE approval_id = $4 AND ts IS NULL`,
        [ts, now, rendered, approvalId],
      );
    },
    release: async (approvalId) => {
      await statement(
        store,
        `UPDATE slack_approval_messages SET claimed_until = '-infinity'
         WHERE approval_id = $1 AND ts IS NULL`,
        [approvalId],
      );
    },
    // The digest and the calls commit together. Two replicas queueing the same change: the second
    // waits on the row lock, finds the digest already recorded, and queues no edit; its keyed calls
    // are skipped by the outbox's unique key.
    queueChanges: async (approvalId, edit, calls) =>
      withTransaction(store, async (client) => {
        const now = Date.now();
        if (edit !== undefined) {
          const changed = await client.query(
            `UPDATE slack_approval_messages SET rendered = $1
             WHERE approval_id = $2 AND ts IS NOT NULL AND rendered IS DISTINCT FROM $1`,
            [edit.rendered, approvalId],
          );
          if (changed.rowCount === 1) await queueCalls(client, [edit.call], now);
        }
        await queueCalls(client, calls, now);
      }),
  };
}
