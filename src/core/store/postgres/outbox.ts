import type { PgStore, Queryable } from './pool.js';
import { withTransaction } from './transaction.js';

export interface OutboxMessage {
  method: string;
  args: Record<string, unknown>;
  /** Messages of one key go out one at a time, in the order queued (default `''`: one lane). */
  orderingKey?: string;
  /** A second message with the same key is not queued. */
  dedupeKey?: string;
}

export interface OutboxClaim {
  id: number;
  orderingKey: string;
  method: string;
  args: Record<string, unknown>;
  /** Sends tried so far, this one included. */
  attempts: number;
}

/** Queues a message (in the caller's transaction, if `q` is one); false when its dedupe key was taken. */
export async function enqueueOutbox(
  q: Queryable,
  message: OutboxMessage,
  nowMs = Date.now(),
): Promise<boolean> {
  const queued = await q.query(
    `INSERT INTO slack_outbox (ordering_key, dedupe_key, method, args_json, created_at, next_at)
     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      message.orderingKey ?? '',
      message.dedupeKey ?? null,
      message.method,
      JSON.stringify(message.args),
      nowMs,
    ],
  );
  return queued.rowCount === 1;
}

/**
 * Claims messages due now for sending: the oldest unsent message of each ordering key, when nothing
 * older of its key is still unsent (being sent elsewhere, or waiting for a retry). Rows another
 * replica is claiming are skipped (`FOR UPDATE SKIP LOCKED`), and each claim is a lease in the
 * table: the claim commits at once, so sending holds no transaction open, and a replica that dies
 * mid-send leaves a lease that runs out, after which another replica sends it again (at least
 * once: Slack has no idempotency key). An approval message is posted once and edited in order
 * because its post and edits share a key.
 */
export async function claimOutbox(
  store: PgStore,
  options: { limit?: number; leaseMs?: number; nowMs?: number } = {},
): Promise<OutboxClaim[]> {
  return withTransaction(store, async (client) => {
    const due = await client.query<{
      id: number;
      ordering_key: string;
      method: string;
      args_json: string;
      attempts: number;
    }>(
      `SELECT id, ordering_key, method, args_json, attempts FROM slack_outbox o
       WHERE done_at IS NULL AND next_at <= $1 AND lease_until <= clock_timestamp()
         AND NOT EXISTS (
           SELECT 1 FROM slack_outbox p
           WHERE p.ordering_key = o.ordering_key AND p.done_at IS NULL AND p.id < o.id)
       ORDER BY id LIMIT $2
       FOR UPDATE SKIP LOCKED`,
      [options.nowMs ?? Date.now(), options.limit ?? 10],
    );
    if (due.rows.length === 0) return [];
    await client.query(
      `UPDATE slack_outbox SET attempts = attempts + 1,
         lease_until = clock_timestamp() + $2 * interval '1 millisecond'
       WHERE id = ANY($1::bigint[])`,
      [due.rows.map((row) => row.id), options.leaseMs ?? 30_000],
    );
    return due.rows.map((row) => ({
      id: row.id,
      orderingKey: row.ordering_key,
      method: row.method,
      args: JSON.parse(row.args_json) as Record<string, unknown>,
      attempts: row.attempts + 1,
    }));
  });
}

/** Slack took it (or refused it for good: pass the error): the next message of its key may go. */
export async function finishOutbox(
  q: Queryable,
  id: number,
  error?: string,
  nowMs = Date.now(),
): Promise<void> {
  await q.query('UPDATE slack_outbox SET done_at = $2, error = $3 WHERE id = $1', [id, nowMs, error ?? null]);
}

/** Send it again at `nextAtMs` (a 429's Retry-After, a backoff); later messages of its key wait. */
export async function retryOutbox(q: Queryable, id: number, nextAtMs: number, error: string): Promise<void> {
  await q.query(`UPDATE slack_outbox SET next_at = $2, error = $3, lease_until = '-infinity' WHERE id = $1`, [
    id,
    nextAtMs,
    error,
  ]);
}

/** Messages not yet sent. */
export async function pendingOutbox(q: Queryable): Promise<number> {
  const rows = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM slack_outbox WHERE done_at IS NULL',
  );
  return rows.rows[0]?.n ?? 0;
}
