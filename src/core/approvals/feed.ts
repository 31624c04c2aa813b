import type { Db } from '../db.js';
import type { ApprovalEvent, ApprovalEventKind, ApprovalState } from './view-schema.js';

interface EventRow {
  seq: number;
  approval_id: string;
  kind: ApprovalEventKind;
  at: string;
  state: ApprovalState;
  attempt: number;
  actor: string | null;
  person: string | null;
  detail: string | null;
}

export type NewApprovalEvent = Omit<ApprovalEvent, 'seq'>;

const eventOf = (row: EventRow): ApprovalEvent => ({
  seq: row.seq,
  approvalId: row.approval_id,
  kind: row.kind,
  at: row.at,
  state: row.state,
  attempt: row.attempt,
  ...(row.actor === null ? {} : { actor: row.actor }),
  ...(row.person === null ? {} : { person: row.person }),
  ...(row.detail === null ? {} : { detail: row.detail }),
});

/**
 * The approval change feed (DESIGN decision 14): one row per change, appended in the transaction of
 * the change itself, so the feed and the approvals never disagree. `seq` grows in commit order
 * across processes (SQLite has one writer at a time), so a reader that has seen `seq` N has seen
 * every change before it. Consumers keep their position here too, by name.
 */
export class ApprovalFeed {
  readonly #insert;
  readonly #after;
  readonly #head;
  readonly #cursor;
  readonly #advance;

  constructor(db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO approval_events (approval_id, kind, at, state, attempt, actor, person, detail)
       VALUES (@approvalId, @kind, @at, @state, @attempt, @actor, @person, @detail)`,
    );
    this.#after = db.prepare('SELECT * FROM approval_events WHERE seq > ? ORDER BY seq LIMIT ?');
    this.#head = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM approval_events');
    this.#cursor = db.prepare('SELECT seq FROM feed_cursors WHERE consumer = ?');
    this.#advance = db.prepare(
      `INSERT INTO feed_cursors (consumer, seq, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (consumer) DO UPDATE SET seq = max(seq, excluded.seq), updated_at = excluded.updated_at`,
    );
  }

  /** Appends inside the caller's transaction; returns the event with its sequence number. */
  append(event: NewApprovalEvent): ApprovalEvent {
    const info = this.#insert.run({
      ...event,
      actor: event.actor ?? null,
      person: event.person ?? null,
      detail: event.detail ?? null,
    });
    return { ...event, seq: Number(info.lastInsertRowid) };
  }

  /** Events after `seq`, oldest first. */
  after(seq: number, limit = 100): ApprovalEvent[] {
    return (this.#after.all(seq, limit) as EventRow[]).map(eventOf);
  }

  /** The newest sequence number (0 when empty). */
  head(): number {
    return (this.#head.get() as { seq: number }).seq;
  }

  /** Where a consumer stands; undefined for one that never read. */
  cursor(consumer: string): number | undefined {
    return (this.#cursor.get(consumer) as { seq: number } | undefined)?.seq;
  }

  /** Records that a consumer has handled everything up to `seq` (never moves back). */
  advance(consumer: string, seq: number): void {
    this.#advance.run(consumer, seq, new Date().toISOString());
  }
}
