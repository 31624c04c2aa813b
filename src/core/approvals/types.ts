import type { Actor, Decision } from '../policy/types.js';
import type { ExecuteResult, Failure } from '../results.js';
import type { AnyTool, Money, Preview } from '../tool.js';

/** DESIGN decision 4: `pending → approved → executing → succeeded | failed`, and the three ends. */
export const APPROVAL_STATES = [
  'pending',
  'approved',
  'executing',
  'succeeded',
  'failed',
  'rejected',
  'expired',
  'cancelled',
] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** States in which an approval is still open (an identical request joins it instead of opening another). */
export const OPEN_STATES: readonly ApprovalState[] = ['pending', 'approved', 'executing'];

/**
 * The most an approved money movement may debit, fixed when the approval opens (or re-opens with a
 * new quote): the quoted total plus the configured tolerance. Approvers see `max`; the execution
 * re-quotes and goes back to them instead of debiting more than `max`.
 */
export interface ApprovalBound {
  /** What the quote shown to approvers would debit (its total debit, in the funding currency). */
  quoted: Money;
  /** The tolerance in force when the bound was set, in percent. */
  tolerancePercent: number;
  /** `quoted` plus the tolerance, rounded down to the currency's minor unit. */
  max: Money;
  /** What the quote shown delivers, less the tolerance, rounded up: the least a fresh quote may deliver. */
  minReceive?: Money;
}

/** What anyone may see of an approval: redacted input, never a secret. */
export interface ApprovalView {
  id: string;
  tool: string;
  state: ApprovalState;
  /** Redacted input of the request. */
  input: Record<string, unknown>;
  requester: string;
  requiredApprovers: number;
  approverRole: string;
  /** The policy's reason (`create_payout of 60000 USD needs 2 approvers …`). */
  reason: string;
  /** What approvers are asked to approve (a quote for money movement); `preview.bound` is `bound.max`. */
  preview?: Preview;
  bound?: ApprovalBound;
  /**
   * 1, then +1 each time a fresh quote fell outside the bound and the approval went back to the
   * approvers: each attempt has its own request id, and only its own votes count.
   */
  attempt: number;
  /** Votes of the current attempt. */
  approvals: { approver: string; at: string }[];
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  /** Who rejected or cancelled, and why. */
  decidedBy?: string;
  decisionReason?: string;
  /** Once executed: the tool's output, redacted. */
  result?: Record<string, unknown>;
  error?: Failure;
  /** The `x-request-id` the execution uses at the service. */
  requestId: string;
}

export type ApprovalActionResult =
  | { status: 'ok'; approval: ApprovalView }
  | { status: 'refused'; reason: string; approval?: ApprovalView }
  | { status: 'not_found'; reason: string };

export interface ApprovalFilter {
  state?: ApprovalState;
  requester?: string;
  tool?: string;
  limit?: number;
}

/** Who is told what happened to an approval (Slack thread, MCP, CLI); front ends subscribe. */
export type ApprovalListener = (event: { type: 'opened' | 'updated'; approval: ApprovalView }) => void;

export type { Actor };

/** Opening an approval: the executor has validated the input and the policy asked for approvers. */
export interface OpenApprovalRequest {
  tool: AnyTool;
  input: Record<string, unknown>;
  actor: Actor;
  decision: Extract<Decision, { decision: 'approval' }>;
  /** Actor, tool and canonical input: an identical open request joins the existing approval. */
  fingerprint: string;
  idempotencyKey?: string;
  onProgress?: (message: string) => void;
}

/**
 * Approvals as DESIGN decisions 4 and 5 describe them, stored in SQLite. The executor hands
 * requests that need approval to it; front ends approve, reject, cancel, read and list through the
 * executor.
 */
export interface ApprovalService {
  open(request: OpenApprovalRequest): Promise<ExecuteResult>;
  /** One approver's vote; the vote that completes the quorum executes the operation (exactly once). */
  approve(id: string, approver: Actor): Promise<ApprovalActionResult>;
  reject(id: string, approver: Actor, reason: string): ApprovalActionResult;
  /** The requester withdraws a request that is still pending (approvers reject instead). */
  cancel(id: string, actor: Actor, reason?: string): ApprovalActionResult;
  get(id: string): ApprovalView | undefined;
  list(filter?: ApprovalFilter): ApprovalView[];
  /**
   * The approval a requester's idempotency key is bound to (open or succeeded), with the request
   * fingerprint it holds: one key stands for one input, whether it ran directly or waits here.
   */
  byIdempotencyKey(
    requesterId: string,
    tool: string,
    key: string,
  ): { id: string; fingerprint: string } | undefined;
  /** At start-up: finish approvals a dead process left `approved` or `executing`, with their request ids. */
  recover(): Promise<number>;
  onChange(listener: ApprovalListener): () => void;
}
