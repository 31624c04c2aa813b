import {
  type ApprovalEventRow,
  approvalEventOf,
  type FeedStore,
  type NewApprovalEvent,
} from '../../approvals/feed.js';
import type { ApprovalEvent } from '../../approvals/view-schema.js';
import type { Db } from './database.js';

/**
 * The feed in SQLite: `seq` is an AUTOINCREMENT key, and SQLite has one writer at a time, so
 * sequence numbers are given in commit order and "after my cursor" never skips a later commit.
 */
export class SqliteFeedStore implements FeedStore {
  readonly #insert;
  readonly #after;
  readonly #head;
  readonly #ofApproval;
  readonly #cursor;
  readonly #advance;
  readonly #cursors;

  constructor(db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO approval_events (approval_id, kind, at, state, attempt, actor, person, detail)
       VALUES (@approvalId, @kind, @at, @state, @attempt, @actor, @person, @detail)`,
    );
    this.#after = db.prepare('SELECT * FROM approval_events WHERE seq > ? ORDER BY seq LIMIT ?');
    this.#ofApproval = db.prepare('SELECT * FROM approval_events WHERE approval_id = ? ORDER BY seq');
    this.#head = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM approval_events');
    this.#cursor = db.prepare('SELECT seq FROM feed_cursors WHERE consumer = ?');
    this.#cursors = db.prepare('SELECT consumer, seq FROM feed_cursors ORDER BY consumer');
    this.#advance = db.prepare(
      `INSERT INTO feed_cursors (consumer, seq, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (consumer) DO UPDATE SET seq = max(seq, excluded.seq), updated_at = excluded.updated_at`,
    );
  }

  async append(event: NewApprovalEvent): Promise<ApprovalEvent> {
    const info = this.#insert.run({
      ...event,
      actor: event.actor ?? null,
      person: event.person ?? null,
      detail: event.detail ?? null,
    });
    return { ...event, seq: Number(info.lastInsertRowid) };
  }

  async after(seq: number, limit = 100): Promise<ApprovalEvent[]> {
    return (this.#after.all(seq, limit) as ApprovalEventRow[]).map(approvalEventOf);
  }

  async ofApproval(approvalId: string): Promise<ApprovalEvent[]> {
    return (this.#ofApproval.all(approvalId) as ApprovalEventRow[]).map(approvalEventOf);
  }

  async head(): Promise<number> {
    return (this.#head.get() as { seq: number }).seq;
  }

  async cursor(consumer: string): Promise<number | undefined> {
    return (this.#cursor.get(consumer) as { seq: number } | undefined)?.seq;
  }

  async advance(consumer: string, seq: number, at: string): Promise<void> {
    this.#advance.run(consumer, seq, at);
  }

  async cursors(): Promise<{ consumer: string; seq: number }[]> {
    return this.#cursors.all() as { consumer: string; seq: number }[];
  }
}
