/** One person's closing of a break-glass review. */
export interface ReviewClose {
  person: string;
  actorId: string;
  reason: string;
  at: string;
}

/**
 * One use of break-glass (docs/approvals.md "Break-glass"): who ran which approval without its
 * missing votes, why, and the people who closed its review. Open until `needed` closers.
 */
export interface BreakGlassReview {
  approvalId: string;
  person: string;
  actorId: string;
  reason: string;
  at: string;
  /** Distinct people needed to close the review (the policy's `breakGlass.review.people` then). */
  needed: number;
  /** The role that closes it. */
  role: string;
  closers: ReviewClose[];
  /** When the last needed closer closed it; undefined while open. */
  closedAt?: string;
}

/** The table `break_glass_reviews`, on each backend. */
export interface BreakGlassStore {
  insert(review: BreakGlassReview): Promise<void>;
  byApproval(approvalId: string): Promise<BreakGlassReview | undefined>;
  /** The reviews of those of these approvals whose glass was broken (one read for a listing). */
  byApprovals(approvalIds: readonly string[]): Promise<BreakGlassReview[]>;
  /** Every review still open, oldest first. */
  open(): Promise<BreakGlassReview[]>;
  /** Stores its closers (and `closedAt` once closed); false when it is not there. */
  update(review: BreakGlassReview): Promise<boolean>;
}

/** A stored row, as both backends hand it back (closers as JSON text or parsed JSON). */
export interface BreakGlassRow {
  approval_id: string;
  person: string;
  actor_id: string;
  reason: string;
  at: string;
  needed: number | string;
  role: string;
  closers_json: unknown;
  closed_at: string | null;
}

export function reviewOf(row: BreakGlassRow): BreakGlassReview {
  const closers = (
    typeof row.closers_json === 'string' ? JSON.parse(row.closers_json) : row.closers_json
  ) as ReviewClose[];
  return {
    approvalId: row.approval_id,
    person: row.person,
    actorId: row.actor_id,
    reason: row.reason,
    at: row.at,
    needed: Number(row.needed),
    role: row.role,
    closers,
    ...(row.closed_at === null ? {} : { closedAt: row.closed_at }),
  };
}

/** The values of a row, in the column order of `BREAK_GLASS_COLUMNS`. */
export const rowValues = (r: BreakGlassReview): unknown[] => [
  r.approvalId,
  r.person,
  r.actorId,
  r.reason,
  r.at,
  r.needed,
  r.role,
  JSON.stringify(r.closers),
  r.closedAt ?? null,
];

export const BREAK_GLASS_COLUMNS = [
  'approval_id',
  'person',
  'actor_id',
  'reason',
  'at',
  'needed',
  'role',
  'closers_json',
  'closed_at',
] as const;
