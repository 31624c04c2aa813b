import type pg from 'pg';
import { type FeedEvent, type FeedPosition, feedHead, readFeed } from './feed.js';
import type { PgStore, Queryable } from './pool.js';
import { type TransactionOptions, withTransaction } from './transaction.js';

/**
 * Creates a consumer group's cursor if it has none: at the beginning of the feed, or at what is
 * readable now (a new follower that should not replay history). An existing cursor is kept.
 */
export async function ensureGroup(q: Queryable, group: string, from: 'beginning' | 'now'): Promise<void> {
  const start = from === 'now' ? await feedHead(q) : { xid: '0', seq: 0 };
  await q.query(
    'INSERT INTO feed_cursors (consumer, xid, seq) VALUES ($1, $2::xid8, $3) ON CONFLICT (consumer) DO NOTHING',
    [group, start.xid, start.seq],
  );
}

/** Where a group stands, or undefined when it has no cursor. */
export async function groupPosition(q: Queryable, group: string): Promise<FeedPosition | undefined> {
  const rows = await q.query<FeedPosition>(
    'SELECT xid::text AS xid, seq FROM feed_cursors WHERE consumer = $1',
    [group],
  );
  return rows.rows[0];
}

/** Handles one event inside the transaction that moves the group's cursor past it. */
export type GroupHandler = (client: pg.PoolClient, event: FeedEvent) => Promise<void>;

export interface ConsumeResult {
  /** False when another replica is handling the group right now (nothing was done here). */
  held: boolean;
  handled: number;
}

/**
 * One turn of a consumer group: in one transaction, lock the group's cursor row (`FOR UPDATE SKIP
 * LOCKED`: if another replica holds it, return at once), read the events after it, hand each to
 * `handle`, move the cursor past them, commit. What the handler writes in `client` commits with the
 * cursor or not at all, so each event's effects happen once per group, whichever replica and
 * however many there are. A replica that dies mid-turn loses its connection; the server rolls its
 * transaction back and frees the row, and the next replica to try takes the same events. A handler
 * that throws rolls the turn back: the event is offered again on the next turn. A handler writes to
 * the database only (queue a Slack message in the outbox, record a step): a turn is a transaction
 * holding a transaction id, and while it runs no feed reader on the server passes it (../feed.ts).
 */
export async function consumeGroup(
  store: PgStore,
  group: string,
  handle: GroupHandler,
  options: { limit?: number; transaction?: TransactionOptions } = {},
): Promise<ConsumeResult> {
  return withTransaction(
    store,
    async (client) => {
      const locked = await client.query<FeedPosition>(
        'SELECT xid::text AS xid, seq FROM feed_cursors WHERE consumer = $1 FOR UPDATE SKIP LOCKED',
        [group],
      );
      const cursor = locked.rows[0];
      if (cursor === undefined) return { held: false, handled: 0 };
      const events = await readFeed(client, cursor, options.limit ?? 100);
      for (const event of events) await handle(client, event);
      const last = events.at(-1);
      if (last !== undefined) {
        await client.query(
          'UPDATE feed_cursors SET xid = $2::xid8, seq = $3, updated_at = now() WHERE consumer = $1',
          [group, last.position.xid, last.position.seq],
        );
      }
      return { held: true, handled: events.length };
    },
    options.transaction,
  );
}

/**
 * A group's turn for followers whose handlers work outside the database (the core's followers,
 * src/core/approvals/follow.ts: a Slack post, then the outbox): the cursor row is locked `FOR
 * UPDATE SKIP LOCKED` for as long as `work` runs, so one replica at a time takes the group's
 * events; `work` gets the group's sequence number and returns the one to record. The core's feed
 * numbers commit in order (its writes hold the storage lock, ./storage.ts), so a sequence number
 * is a position here. Another replica holding the row: false at once, nothing done. A replica
 * that dies mid-turn loses its session and the row with it; the events it had not recorded are
 * handed again by the next turn, so handlers keep their effects once (outbox keys, message claims).
 * Not retried: `work` has done things a replay would repeat; the follower tries again later.
 */
export async function groupTurn(
  store: PgStore,
  group: string,
  startAt: 'beginning' | 'end',
  work: (seq: number) => Promise<number>,
): Promise<boolean> {
  // A new group's cursor in a statement of its own, so creating it never waits on a turn.
  await store.pool.query(
    `INSERT INTO feed_cursors (consumer, xid, seq)
     SELECT $1, coalesce(last.xid, '0'::xid8), coalesce(last.seq, 0)
     FROM (SELECT 1) AS one
     LEFT JOIN LATERAL (SELECT xid, seq FROM approval_events WHERE $2 ORDER BY seq DESC LIMIT 1) AS last ON true
     WHERE NOT EXISTS (SELECT 1 FROM feed_cursors WHERE consumer = $1)
     ON CONFLICT (consumer) DO NOTHING`,
    [group, startAt === 'end'],
  );
  return withTransaction(
    store,
    async (client) => {
      const locked = await client.query<{ seq: number }>(
        'SELECT seq FROM feed_cursors WHERE consumer = $1 FOR UPDATE SKIP LOCKED',
        [group],
      );
      const cursor = locked.rows[0];
      if (cursor === undefined) return false;
      const next = await work(cursor.seq);
      if (next > cursor.seq) {
        await client.query(
          `UPDATE feed_cursors
           SET seq = $2, xid = coalesce((SELECT xid FROM approval_events WHERE seq = $2), xid), updated_at = now()
           WHERE consumer = $1`,
          [group, next],
        );
      }
      return true;
    },
    { attempts: 1 },
  );
}
