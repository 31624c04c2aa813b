import type { ApprovalEvent } from './view-schema.js';

export type NewApprovalEvent = Omit<ApprovalEvent, 'seq'>;

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
  /** The newest sequence number (0 when empty). */
  head(): Promise<number>;
  /** Where a consumer stands; undefined for one that never read. */
  cursor(consumer: string): Promise<number | undefined>;
  /** Records that a consumer has handled everything up to `seq` (never moves back). */
  advance(consumer: string, seq: number, at: string): Promise<void>;
  /** Every consumer's position, by name. */
  cursors(): Promise<{ consumer: string; seq: number }[]>;
}
