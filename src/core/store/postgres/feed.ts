import type pg from 'pg';
import { type ApprovalEventRow, approvalEventOf } from '../../approvals/feed.js';
import { type ApprovalEvent, ApprovalEventSchema } from '../../approvals/view-schema.js';
import type { Queryable } from './pool.js';

/**
 * Where a reader of the change feed stands: the writing transaction's id (`xid8`, as decimal text)
 * and the event's sequence number. Events are read in (xid, seq) order, never by seq alone.
 */
export interface FeedPosition {
  xid: string;
  seq: number;
}

/** Before every event. */
export const FEED_START: FeedPosition = { xid: '0', seq: 0 };

/** The channel whose NOTIFY wakes readers (a wake-up only: the table carries the truth). */
export const FEED_CHANNEL = 'bankops_feed';

/**
 * The payload of a NOTIFY on `FEED_CHANNEL` that says a policy version was recorded (feed events
 * notify with an empty one): one listening connection wakes both, each its own readers.
 */
export const POLICY_PAYLOAD = 'policy';

export interface FeedEvent extends ApprovalEvent {
  position: FeedPosition;
}

export type NewFeedEvent = Omit<ApprovalEvent, 'seq'>;

interface Row extends ApprovalEventRow {
  xid: string;
}

function eventOf(row: Row): FeedEvent {
  const event = ApprovalEventSchema.parse(approvalEventOf(row));
  return { ...event, position: { xid: row.xid, seq: row.seq } };
}

/**
 * Appends an event in the caller's transaction (the one that changes the approval), and asks for a
 * wake-up of readers, which PostgreSQL delivers only if and when that transaction commits.
 */
export async function appendFeedEvent(client: pg.ClientBase, event: NewFeedEvent): Promise<FeedEvent> {
  const inserted = await client.query<Row>(
    `INSERT INTO approval_events (approval_id, kind, at, state, attempt, actor, person, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING seq, xid::text AS xid, approval_id, kind, at, state, attempt, actor, person, detail`,
    [
      event.approvalId,
      event.kind,
      event.at,
      event.state,
      event.attempt,
      event.actor ?? null,
      event.person ?? null,
      event.detail ?? null,
    ],
  );
  await client.query('SELECT pg_notify($1, $2)', [FEED_CHANNEL, '']);
  return eventOf(inserted.rows[0] as Row);
}

/**
 * Events after `after`, oldest first, taking only rows written by transactions older than every
 * transaction still running (`pg_snapshot_xmin`). Sequence numbers are handed out at insert and
 * commit in any order, so "seq > my cursor" would skip a row that commits late with a lower
 * number; a row whose transaction is still running is never read, and every transaction that may
 * still commit has an xid at or above the horizon, so it sorts after every row already read. A
 * reader therefore never passes an event it has not seen. The price: a transaction left open holds
 * every reader back (the pool's idle-in-transaction timeout bounds that).
 */
export async function readFeed(q: Queryable, after: FeedPosition, limit = 100): Promise<FeedEvent[]> {
  const rows = await q.query<Row>(
    `SELECT seq, xid::text AS xid, approval_id, kind, at, state, attempt, actor, person, detail
     FROM approval_events
     WHERE (xid, seq) > ($1::xid8, $2::bigint) AND xid < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY xid, seq
     LIMIT $3`,
    [after.xid, after.seq, limit],
  );
  return rows.rows.map(eventOf);
}

/** The position after the last event a reader may take now (`FEED_START` when there is none). */
export async function feedHead(q: Queryable): Promise<FeedPosition> {
  const rows = await q.query<{ xid: string; seq: number }>(
    `SELECT xid::text AS xid, seq FROM approval_events
     WHERE xid < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY xid DESC, seq DESC LIMIT 1`,
  );
  return rows.rows[0] ?? FEED_START;
}

/** An approval's events, oldest first (changes of one approval hold its row lock: they commit in seq order). */
export async function eventsOf(q: Queryable, approvalId: string): Promise<FeedEvent[]> {
  const rows = await q.query<Row>(
    `SELECT seq, xid::text AS xid, approval_id, kind, at, state, attempt, actor, person, detail
     FROM approval_events WHERE approval_id = $1 ORDER BY seq`,
    [approvalId],
  );
  return rows.rows.map(eventOf);
}
