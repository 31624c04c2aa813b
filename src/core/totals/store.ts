import type { TotalSubject } from '../policy/totals.js';

/**
 * Money moved or waiting to move, one row per admitted call (docs/policy.md "Totals and limits"):
 * written in the transaction that opens its approval or admits a direct call. A row tied to an
 * approval counts while the approval is pending, approved, executing, succeeded or unresolved;
 * one of a direct call counts until it is released (the call failed before money could move).
 */
export interface MoneyHold {
  id: string;
  /** When it was admitted, epoch ms. */
  at: number;
  /** The person who asked. */
  requester: string;
  beneficiary?: string | undefined;
  sourceAccount?: string | undefined;
  currency: string;
  /** In minor units of `currency`. */
  amount: number;
  approvalId?: string | undefined;
}

/** The sums of one subject's holds in one currency, one per start (epoch ms): all since then. */
export interface HoldSums {
  of: TotalSubject;
  /** Who or what; none for `company` (every hold). */
  subject?: string | undefined;
  currency: string;
  since: readonly number[];
}

/**
 * What one admission counts: the subjects' locks (`requester:ann`), then the sums of each query,
 * read once the locks were granted.
 */
export interface HoldCount {
  locks: readonly string[];
  queries: readonly HoldSums[];
}

/**
 * The approval states in which no money moved nor will: entering one releases the approval's hold
 * (rejected, expired, cancelled, failed). A hold counts while its approval is pending, approved,
 * executing, succeeded or unresolved.
 */
export const RELEASING_STATES: ReadonlySet<string> = new Set(['rejected', 'expired', 'cancelled', 'failed']);

export interface MoneyHoldStore {
  /**
   * Takes the subjects' locks until the transaction ends, so two replicas never both count the
   * same totals and admit (PostgreSQL: transaction-level advisory locks; SQLite's write
   * transaction already excludes every other writer), then the sums of each query, read after
   * the locks were granted. On PostgreSQL one round trip however many, and none when the
   * transaction was begun with this very count (`TxOptions.count`).
   */
  count(count: HoldCount): Promise<number[][]>;
  insert(hold: MoneyHold): Promise<void>;
  /** A direct call that failed before money could move no longer counts. */
  release(id: string, at: number): Promise<void>;
  /** The approval ended without moving money (`RELEASING_STATES`): its hold no longer counts. */
  releaseApproval(approvalId: string, at: number): Promise<void>;
}
