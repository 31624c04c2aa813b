import type pg from 'pg';
import {
  type ApprovalEventRow,
  approvalEventOf,
  type FeedStore,
  type NewApprovalEvent,
} from '../../../approvals/feed.js';
import type { ApprovalEvent } from '../../../approvals/view-schema.js';
import { appendFeedEvent, type FeedEvent } from '../feed.js';

const plain = ({ position: _position, ...event }: FeedEvent): ApprovalEvent => event;

const COLUMNS = 'seq, xid::text AS xid, approval_id, kind, at, state, attempt, actor, person, detail';

/**
 * The feed for the core, on the table that consumer groups and the listener read (../feed.ts).
 * Sequence numbers are in commit order here because every write transaction of the storage holds
 * its write lock (../storage.ts): one commits before the next one starts writing, so "after my
 * number" never skips a row that commits later with a lower one, and (xid, seq) order is seq order.
 * A cursor keeps the event's xid too, so consumer groups can share the cursor table.
 */
export class PgFeedStore implements FeedStore {
  constructor(private readonly client: pg.ClientBase) {}

  async append(event: NewApprovalEvent): Promise<ApprovalEvent> {
    return plain(await appendFeedEvent(this.client, event));
  }

  async after(seq: number, limit = 100): Promise<ApprovalEvent[]> {
    const rows = await this.client.query<ApprovalEventRow>(
      `SELECT ${COLUMNS} FROM approval_events WHERE seq > $1 ORDER BY seq LIMIT $2`,
      [seq, limit],
    );
    return rows.rows.map(approvalEventOf);
  }

  async ofApproval(approvalId: string): Promise<ApprovalEvent[]> {
    const rows = await this.client.query<ApprovalEventRow>(
      `SELECT ${COLUMNS} FROM approval_events WHERE approval_id = $1 ORDER BY seq`,
      [approvalId],
    );
    return rows.rows.map(approvalEventOf);
  }

  async head(): Promise<number> {
    const rows = await this.client.query<{ seq: number }>(
      'SELECT coalesce(max(seq), 0)::bigint AS seq FROM approval_events',
    );
    return rows.rows[0]?.seq ?? 0;
  }

  async cursor(consumer: string): Promise<number | undefined> {
    const rows = await this.client.query<{ seq: number }>(
      'SELECT seq FROM feed_cursors WHERE consumer = $1',
      [consumer],
    );
    return rows.rows[0]?.seq;
  }

  async advance(consumer: string, seq: number, at: string): Promise<void> {
    await this.client.query(
      `INSERT INTO feed_cursors (consumer, xid, seq, updated_at)
       VALUES ($1, coalesce((SELECT xid FROM approval_events WHERE seq = $2), '0'::xid8), $2, $3)
       ON CONFLICT (consumer) DO UPDATE SET xid = excluded.xid, seq = excluded.seq, updated_at = excluded.updated_at
       WHERE feed_cursors.seq < excluded.seq`,
      [consumer, seq, at],
    );
  }

  async cursors(): Promise<{ consumer: string; seq: number }[]> {
    const rows = await this.client.query<{ consumer: string; seq: number }>(
      'SELECT consumer, seq FROM feed_cursors ORDER BY consumer COLLATE "C"',
    );
    return rows.rows;
  }
}
