import type pg from 'pg';
import { type OutboxCall, type OutboxRows, outboxRowOf, type StoredOutboxRow } from '../outbox-rows.js';
import { type PgStore, pgJson, statement, withTransaction } from './database.js';

/**
 * Queues calls in the caller's transaction (the outbox alone, a delivery and its messages, an
 * approval's rendered digest and its edits), one insert each so they are numbered in the order
 * given. A key already queued, here or by a concurrent transaction, is skipped: the second insert
 * waits on the unique key until the first commits, then does nothing.
 */
export async function queueCalls(
  client: pg.ClientBase,
  calls: readonly OutboxCall[],
  now: number,
): Promise<number> {
  let queued = 0;
  for (const call of calls) {
    const inserted = await client.query(
      `INSERT INTO slack_outbox (dedupe_key, method, args_json, created_at, next_at)
       VALUES ($1, $2, $3, $4, $4) ON CONFLICT (dedupe_key) DO NOTHING`,
      [call.dedupeKey ?? null, call.method, pgJson.write(call.args), now],
    );
    queued += inserted.rowCount ?? 0;
  }
  return queued;
}

/**
 * The outbox in PostgreSQL. Every message is queued in the default lane (`ordering_key` ''), and
 * only that lane's head may be claimed: one conditional `UPDATE … RETURNING`, leased only if it is
 * due and unleased. Two replicas claiming at once both pick the head, one updates it and the other,
 * waiting on its row lock, finds it leased and gets nothing. No `SKIP LOCKED`: skipping a locked
 * head would send what queues behind it first. Times are the caller's milliseconds; the lease is
 * kept as a `timestamptz` made from them. Rows numbered by concurrent transactions may commit out
 * of number order, so messages of different approvals may go out in either order; each approval's
 * own are queued one after another and keep theirs (docs/architecture.md).
 */
export function postgresOutbox(store: PgStore): OutboxRows {
  return {
    add: async (calls, now) => withTransaction(store, (client) => queueCalls(client, calls, now)),
    claimHead: async (now, leaseUntil) => {
      // `done_at IS NULL` again outside the sub-select: a claimer that waited on the row lock
      // re-checks the row as the other left it, and a head sent meanwhile is not claimed again.
      const claimed = await statement<StoredOutboxRow>(
        store,
        `UPDATE slack_outbox SET lease_until = to_timestamp($1::bigint / 1000.0)
         WHERE id = (SELECT id FROM slack_outbox
                     WHERE ordering_key = '' AND done_at IS NULL ORDER BY id LIMIT 1)
           AND done_at IS NULL AND next_at <= $2::bigint AND lease_until <= to_timestamp($2::bigint / 1000.0)
         RETURNING id, method, args_json, attempts`,
        [leaseUntil, now],
      );
      const row = claimed.rows[0];
      return row === undefined ? undefined : outboxRowOf(row, pgJson.read);
    },
    sent: async (id, now) => {
      await statement(store, 'UPDATE slack_outbox SET done_at = $1, error = NULL WHERE id = $2', [now, id]);
    },
    dropped: async (id, now, attempts, error) => {
      await statement(
        store,
        'UPDATE slack_outbox SET done_at = $1, attempts = $2, error = $3 WHERE id = $4',
        [now, attempts, error, id],
      );
    },
    retryAt: async (id, attempts, nextAt, error) => {
      await statement(
        store,
        `UPDATE slack_outbox SET attempts = $1, next_at = $2, lease_until = '-infinity', error = $3
         WHERE id = $4`,
        [attempts, nextAt, error, id],
      );
    },
    pending: async () =>
      (
        await statement<{ n: number }>(
          store,
          'SELECT count(*)::int AS n FROM slack_outbox WHERE done_at IS NULL',
        )
      ).rows[0]?.n ?? 0,
  };
}
