import type { Actor, Decision } from '../policy/types.js';
import type { ExecuteResult } from '../results.js';
import type { AnyTool } from '../tool.js';
import type { Admission } from '../totals/direct.js';
import type { ApprovalEvent, ApprovalState, ApprovalView, Origin } from './view-schema.js';

export type { BreakGlassReview, ReviewClose } from './break-glass-store.js';

export * from './view-schema.js';

export type ApprovalActionResult =
  | { status: 'ok'; approval: ApprovalView }
  | { status: 'refused'; reason: string; approval?: ApprovalView }
  | { status: 'not_found'; reason: string };

/**
 * A pending approval as the reminders see it: when it opened, its deadline, and its rule's reminder
 * under the policy in force (`approval.reminder`; undefined when the rule turned reminders off).
 */
export interface WaitingApproval {
  id: string;
  createdAt: string;
  /** 1, plus one per new quote: each attempt is a new question with its own deadline. */
  attempt: number;
  /**
   * When this attempt began: `createdAt` for the first; for a later one the time of the new quote
   * (the row's `updated_at`, which only a vote moves afterwards, and a voted approval is not reminded).
   */
  attemptStartedAt: string;
  expiresAt: string;
  reminderMs: number | undefined;
}

/** An approval being executed now (`approved` or `executing`), who holds it and until when. */
export interface Execution {
  id: string;
  tool: string;
  state: 'approved' | 'executing';
  /** The process that holds it (`${hostname}:${pid}`); none when nobody does (it is taken at once). */
  owner?: string;
  /** Its hold lasts until then unless renewed; past it, another process takes it over. */
  leaseUntil?: string;
  /** When it last changed state or holder. */
  since: string;
  requestId: string;
  attempt: number;
  /** Sends of this attempt so far, across processes. */
  sends: number;
}

export interface ApprovalFilter {
  state?: ApprovalState;
  requester?: string;
  tool?: string;
  limit?: number;
  /**
   * Only those listed after this one, newest first: the next page starts after the last approval of
   * the one before, so an approval that changes state between two pages moves no other out of view.
   */
  after?: { id: string; createdAt: string };
}

/** Told after each committed change, in this process (other processes follow the feed). */
export type ApprovalListener = (event: ApprovalEvent) => void;

export type { Actor };

/** Where a request came from, as a front end states it; the front end itself comes from the actor. */
export type RequestOrigin = Partial<Pick<Origin, 'displayName' | 'replyTo'>>;

/** Opening an approval: the executor has validated the input and the policy asked for approvers. */
export interface OpenApprovalRequest {
  tool: AnyTool;
  input: Record<string, unknown>;
  actor: Actor;
  decision: Extract<Decision, { decision: 'approval' }>;
  /** Actor, tool and canonical input (secrets left out): an identical open request joins it. */
  fingerprint: string;
  idempotencyKey?: string;
  origin?: RequestOrigin;
  onProgress?: (message: string) => void;
  /** Running totals and limits: decided again, and counted, in the transaction that opens it. */
  admission?: Admission;
}

/** How a person settles an approval whose outcome stayed unknown (`unresolved`). */
export type Reconciliation =
  /** They found at the service that it happened (by the request id). */
  (
    | { outcome: 'succeeded'; reason: string }
    /** They found that it did not happen; a new request may be made. */
    | { outcome: 'failed'; reason: string }
    /** Send it once more, with the same request id (the service deduplicates). */
    | { outcome: 'retry'; reason?: string }
  ) & {
    /**
     * The request id the person looked up at the service: only that attempt is settled. An approval
     * sent back for a new quote and unresolved again under a newer request id is refused instead.
     */
    requestId?: string;
  };

/**
 * Approvals as DESIGN decisions 4, 5 and 14 describe them, kept in the store. The executor hands
 * requests that need approval to it; front ends approve, reject, cancel, read and list through the
 * executor, and follow changes through the feed.
 */
export interface ApprovalService {
  open(request: OpenApprovalRequest): Promise<ExecuteResult>;
  /** One approver's vote; the vote that completes the quorum executes the operation (exactly once). */
  approve(id: string, approver: Actor): Promise<ApprovalActionResult>;
  reject(id: string, approver: Actor, reason: string): Promise<ApprovalActionResult>;
  /** The requester withdraws a request that is still pending (approvers reject instead). */
  cancel(id: string, actor: Actor, reason?: string): Promise<ApprovalActionResult>;
  /** A person settles an `unresolved` approval after looking it up at the service. */
  reconcile(id: string, actor: Actor, how: Reconciliation): Promise<ApprovalActionResult>;
  get(id: string): Promise<ApprovalView | undefined>;
  list(filter?: ApprovalFilter): Promise<ApprovalView[]>;
  /** Every approval in a state, newest first, however many (`list` gives 500 at most). */
  listAll(state: ApprovalState): Promise<ApprovalView[]>;
  /**
   * The approval a requester's idempotency key is bound to (open or succeeded), with the request
   * fingerprint it holds: one key stands for one input, whether it ran directly or waits here.
   */
  byIdempotencyKey(
    requesterId: string,
    tool: string,
    key: string,
  ): Promise<{ id: string; fingerprint: string } | undefined>;
  /** At start-up: finish approvals a dead process left `approved` or `executing`, with their request ids. */
  recover(): Promise<number>;
  onEvent(listener: ApprovalListener): () => void;
}
