import { optional } from '../optional.js';
import type { ApprovalEvent, ApprovalEventKind, ApprovalState } from './view-schema.js';

export type NewApprovalEvent = Omit<ApprovalEvent, 'seq'>;

/** A stored `approval_events` row, as every backend reads it. */
export interface ApprovalEventRow {
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

/** The event a stored row holds. */
export const approvalEventOf = (row: ApprovalEventRow): ApprovalEvent => ({
  seq: row.seq,
  approvalId: row.approval_id,
  kind: row.kind,
  at: row.at,
  state: row.state,
  attempt: row.attempt,
  ...optional('actor', row.actor ?? undefined),
  ...optional('person', row.person ?? undefined),
  ...optional('detail', row.detail ?? undefined),
});

/**
 * The approval change feed (DESIGN decision 14): one event per change, appended in the transaction
 * of the change itself, so the feed and the approvals never disagree; consumers keep their position
 * here too, by name. A backend must hand events out in commit order: a reader that has seen `seq` N
 * never misses an event that commits later with a lower number (src/core/store/sqlite/feed.ts).
 */
export interface FeedStore {
  /** Appends inside the caller's transaction; returns the event with its sequence number. */
  append(event: NewApprovalEvent): Promise<ApprovalEvent>;
  /** Committed events after `seq`, oldest first. */
  after(seq: number, limit?: number): Promise<ApprovalEvent[]>;
  /** One approval's events, oldest first (its history, for a person reading it). */
  ofApproval(approvalId: string): Promise<ApprovalEvent[]>;
  /** The newest sequence number (0 when empty). */
  head(): Promise<number>;
  /** Where a consumer stands; undefined for one that never read. */
  cursor(consumer: string): Promise<number | undefined>;
  /** Records that a consumer has handled everything up to `seq` (never moves back). */
  advance(consumer: string, seq: number, at: string): Promise<void>;
  /** Every consumer's position, by name. */
  cursors(): Promise<{ consumer: string; seq: number }[]>;
}
