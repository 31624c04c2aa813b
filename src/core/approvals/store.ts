import type { ApprovalFilter, ApprovalState } from './types.js';

/** One approval as every backend stores it (JSON columns as text). */
export interface ApprovalRow {
  id: string;
  tool: string;
  input_json: string;
  fingerprint: string;
  idempotency_key: string | null;
  requester_id: string;
  requester_json: string;
  requester_person: string;
  origin_json: string;
  route_json: string | null;
  state: ApprovalState;
  required_approvers: number;
  approver_role: string;
  policy_rule: string;
  policy_reason: string;
  preview_json: string | null;
  bound_json: string | null;
  checkpoints_json: string;
  result_json: string | null;
  error_json: string | null;
  request_id: string;
  attempt: number;
  sends: number;
  owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
  decided_by: string | null;
  decision_reason: string | null;
  settlement_json: string | null;
  settle_next_at: string | null;
  settle_polls: number;
  /** `passkey` when each vote must be confirmed with a passkey (the rule's `stepUp`). */
  step_up: 'passkey' | null;
}

/** Every column of the `approvals` table, in the order the stores and the database copy name them. */
export const APPROVAL_COLUMNS = [
  'id',
  'tool',
  'input_json',
  'fingerprint',
  'idempotency_key',
  'requester_id',
  'requester_json',
  'requester_person',
  'origin_json',
  'route_json',
  'state',
  'required_approvers',
  'approver_role',
  'policy_rule',
  'policy_reason',
  'preview_json',
  'bound_json',
  'checkpoints_json',
  'result_json',
  'error_json',
  'request_id',
  'attempt',
  'sends',
  'owner',
  'lease_until',
  'created_at',
  'updated_at',
  'expires_at',
  'decided_by',
  'decision_reason',
  'settlement_json',
  'settle_next_at',
  'settle_polls',
  'step_up',
] as const satisfies readonly (keyof ApprovalRow)[];

export interface VoteRow {
  approver_id: string;
  person: string;
  voted_at: string;
  /** The approver as they voted (the identity the policy is applied to again). */
  approver_json: string;
  /** A signed vote's proof (`VoteEvidence` as JSON), or null. */
  evidence_json: string | null;
}

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;

/** What an update expects to find: the state, and when given the holder. */
export interface Expected {
  state: ApprovalState;
  owner?: string | null;
}

/**
 * The approvals and their votes (src/core/store/sqlite/approvals.ts for SQLite). No decisions
 * here: the engine makes them inside its transactions, and every method runs inside the
 * transaction it is called in.
 */
export interface ApprovalStore {
  byId(id: string): Promise<ApprovalRow | undefined>;
  /** The open approval of this request: same fingerprint and the same idempotency key (or none). */
  openByFingerprint(fingerprint: string, key: string | undefined): Promise<ApprovalRow | undefined>;
  /** The open approval of this key, else its latest success (a keyed retry after success gets the result). */
  byKey(requesterId: string, tool: string, key: string): Promise<ApprovalRow | undefined>;
  insert(row: ApprovalRow): Promise<void>;
  /**
   * Changes the named columns of one approval, only if it is still as `expected` (a compare-and-set).
   * Returns whether it changed: false means someone else moved it.
   */
  update(id: string, expected: Expected, changes: Partial<Omit<ApprovalRow, 'id'>>): Promise<boolean>;
  /**
   * Takes an `approved` or `executing` approval whose lease has run out (or that nobody holds) for
   * `owner` until `leaseUntil`; whether this caller won it.
   */
  claimExecution(id: string, owner: string, leaseUntil: string, now: string): Promise<boolean>;
  /** Moves the lease of an approval `owner` still holds; false when it no longer does. */
  renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean>;
  votes(id: string, attempt: number): Promise<VoteRow[]>;
  addVote(id: string, vote: NewVote): Promise<void>;
  pendingPast(now: string): Promise<ApprovalRow[]>;
  /** The earliest deadline of a pending approval, for the expiry timer. */
  nextExpiry(): Promise<string | undefined>;
  /** `approved` or `executing` ones, oldest change first (recovery). */
  unfinished(): Promise<ApprovalRow[]>;
  /** Sent money whose final status is due to be asked again. */
  settlementsDue(now: string, limit: number): Promise<ApprovalRow[]>;
  /**
   * Newest first (approvals of the same time in the backend's own order: on SQLite the later
   * recorded first, on PostgreSQL by id), at most `limit` (default 50, at most 500), after `after`
   * when given.
   */
  list(filter: ApprovalFilter): Promise<ApprovalRow[]>;
  /** How many approvals are in each state (states with none left out), and the oldest pending one's time. */
  census(): Promise<ApprovalCensus>;
}

export interface ApprovalCensus {
  byState: { state: ApprovalState; count: number }[];
  /** `created_at` of the oldest pending approval. */
  oldestPendingAt?: string;
}

export interface NewVote {
  person: string;
  approverId: string;
  approverJson: string;
  attempt: number;
  at: string;
  evidenceJson?: string | null;
}

/** The list limit a filter asks for, within bounds. */
export function listLimit(filter: ApprovalFilter): number {
  const wanted =
    filter.limit !== undefined && Number.isFinite(filter.limit) ? filter.limit : DEFAULT_LIST_LIMIT;
  return Math.min(Math.max(Math.trunc(wanted), 1), MAX_LIST_LIMIT);
}
