import type { MoneyHold } from '../totals/store.js';
import type { Approval, NewVote, StoredFailure, Vote } from './approval.js';
import type { ApprovalFilter, ApprovalState, Settlement } from './types.js';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;

/**
 * What a send came to, as `outcomeChanges` (outcome.ts) decides it: the approval leaves
 * `executing` and its holder lets it go.
 */
export type Finish =
  | {
      state: 'succeeded';
      /** The tool's output, redacted. */
      result: Record<string, unknown>;
      /** Sent money to follow, and when to look first (null: its first answer was final). */
      settlement: { settlement: Settlement; nextAt: string | null } | null;
      at: string;
    }
  | { state: 'failed' | 'unresolved'; error: StoredFailure; at: string }
  | {
      /** Back to the approvers with a fresh quote: a new attempt, with the full time to answer. */
      state: 'pending';
      requote: Pick<Approval, 'attempt' | 'requestId' | 'preview' | 'bound' | 'expiresAt'>;
      error: StoredFailure;
      at: string;
    };

/** How a pending approval ends without running: who ended it, why, and when. */
export interface Closing {
  state: 'rejected' | 'cancelled' | 'expired';
  decidedBy: string;
  reason: string;
  at: string;
}

/**
 * The approvals and their votes (src/core/store/sqlite/approvals.ts, src/core/store/postgres/core/
 * approvals.ts). No decisions here: the engine makes them inside its transactions, and every method
 * runs inside the transaction it is called in. Each change is a named transition and a
 * compare-and-set: it applies only to an approval still in the state it leaves (and, while one is
 * executing, still held by `owner`), and says whether it did; false means someone else moved it.
 */
export interface ApprovalStore {
  byId(id: string): Promise<Approval | undefined>;
  /** The open approval of this request: same fingerprint and the same idempotency key (or none). */
  openByFingerprint(fingerprint: string, key: string | undefined): Promise<Approval | undefined>;
  /** The open approval of this key, else its latest success (a keyed retry after success gets the result). */
  byKey(requesterId: string, tool: string, key: string): Promise<Approval | undefined>;
  /** With `hold`, the approval's row of the running totals too (one statement where it can be). */
  insert(approval: Approval, hold?: MoneyHold): Promise<void>;
  votes(id: string, attempt: number): Promise<Vote[]>;

  /** A vote on a pending approval, which moves its `updatedAt` to the vote's time. */
  recordVote(id: string, vote: NewVote): Promise<boolean>;
  /**
   * pending → executing under `owner` until `leaseUntil`: the vote that completed the quorum. It
   * commits before anything is sent.
   */
  startExecution(id: string, owner: string, leaseUntil: string, at: string): Promise<boolean>;
  /** pending → rejected, cancelled or expired. */
  close(id: string, closing: Closing): Promise<boolean>;
  /**
   * Takes an `approved` or `executing` approval whose lease has run out (or that nobody holds) for
   * `owner` until `leaseUntil`; whether this caller won it.
   */
  claimExecution(id: string, owner: string, leaseUntil: string, now: string): Promise<boolean>;
  /** Moves the lease of an approval `owner` still holds; false when it no longer does. */
  renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean>;
  /** Counts the send about to happen (durably, before it happens) and moves the lease. */
  countSend(id: string, owner: string, leaseUntil: string): Promise<boolean>;
  /** Keeps what the running tool checkpointed (a payout's quote) before it goes on. */
  saveCheckpoints(id: string, owner: string, checkpoints: Record<string, unknown>): Promise<boolean>;
  /** The outcome stayed unknown and the re-send window is open: its last error, the lease moved. */
  noteRetrying(id: string, owner: string, error: StoredFailure, leaseUntil: string): Promise<boolean>;
  /** executing → what the send came to, letting the approval go. */
  finish(id: string, owner: string, finish: Finish): Promise<boolean>;
  /** Lets go of an executing approval `owner` holds, so recovery in any process may take it. */
  release(id: string, owner: string): Promise<boolean>;
  /** unresolved → succeeded or failed: a person found out at the service. */
  reconcile(
    id: string,
    settled: { state: 'succeeded' | 'failed'; decidedBy: string; reason: string; at: string },
  ): Promise<boolean>;
  /** unresolved → executing under `owner`, its sends counted from 0: sent once more, same request id. */
  resend(id: string, owner: string, leaseUntil: string, at: string): Promise<boolean>;
  /** Takes the look at sent money due at `dueAt` until `until`; false when another process took it. */
  claimSettlementLook(id: string, dueAt: string, until: string): Promise<boolean>;
  /** What the service said of sent money, and when to ask again (null: no more). */
  recordSettlement(
    id: string,
    settlement: Settlement,
    polls: number,
    nextAt: string | null,
  ): Promise<boolean>;
  /** Stops following the money an approval sent. */
  stopSettling(id: string): Promise<boolean>;

  pendingPast(now: string): Promise<Approval[]>;
  /** The earliest deadline of a pending approval, for the expiry timer. */
  nextExpiry(): Promise<string | undefined>;
  /** `approved` or `executing` ones, oldest change first (recovery). */
  unfinished(): Promise<Approval[]>;
  /** Sent money whose final status is due to be asked again. */
  settlementsDue(now: string, limit: number): Promise<Approval[]>;
  /**
   * Newest first (approvals of the same time in the backend's own order: on SQLite the later
   * recorded first, on PostgreSQL by id), at most `limit` (default 50, at most 500), after `after`
   * when given.
   */
  list(filter: ApprovalFilter): Promise<Approval[]>;
  /** How many approvals are in each state (states with none left out), and the oldest pending one's time. */
  census(): Promise<ApprovalCensus>;
}

export interface ApprovalCensus {
  byState: { state: ApprovalState; count: number }[];
  /** `created_at` of the oldest pending approval. */
  oldestPendingAt?: string;
}

/** The list limit a filter asks for, within bounds. */
export function listLimit(filter: ApprovalFilter): number {
  const wanted =
    filter.limit !== undefined && Number.isFinite(filter.limit) ? filter.limit : DEFAULT_LIST_LIMIT;
  return Math.min(Math.max(Math.trunc(wanted), 1), MAX_LIST_LIMIT);
}
