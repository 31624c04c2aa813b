import type { BreakGlassReview } from '../core/approvals/break-glass-store.js';
import type { ApprovalView, Money } from '../core/approvals/view-schema.js';
import { formatAmount } from '../core/money.js';
import { approvalLines, plainWording, type Wording } from './approval-words.js';

/**
 * Break-glass in words, for every front end (docs/approvals.md "Break-glass"): the loud post to
 * the approvals channels, the state of its review, and the answer to closing it.
 */

const people = (n: number): string => (n === 1 ? 'one person' : n === 2 ? 'two people' : `${n} people`);

/** What closes the review: `two admins`. */
const closers = (review: Pick<BreakGlassReview, 'needed' | 'role'>): string =>
  review.needed === 1
    ? `one ${review.role}`
    : `${review.needed === 2 ? 'two' : review.needed} ${review.role}s`;

/** The post to every approvals channel. */
export function breakGlassAlert(
  view: ApprovalView,
  review: Pick<BreakGlassReview, 'person' | 'actorId' | 'reason' | 'needed' | 'role'>,
  w: Wording = plainWording,
): string {
  const what = approvalLines(view)[0] ?? view.tool;
  return `:rotating_light: Break-glass: ${w.who(review.actorId, review.person)} ran ${view.tool} (${view.id}: ${what}) without its approvers: ${w.text(review.reason)}. Review open: ${closers(review)} must close it (\`bankops approvals review ${view.id} --close --reason "…"\`).`;
}

/**
 * The answer to a break-glass that went through: it was one, what became of the run (`line`, as a
 * vote's answer says it) and that its review is open, with the command that closes it.
 */
export function breakGlassRanLine(
  line: string,
  review: Pick<BreakGlassReview, 'approvalId' | 'actorId' | 'person' | 'needed' | 'role'>,
  w: Wording = plainWording,
): string {
  return `Break-glass by ${w.who(review.actorId, review.person)}. ${line} Review open until ${closers(review)} close it: bankops approvals review ${review.approvalId} --close --reason "…".`;
}

/** Where a review stands, in one line. */
export function reviewState(review: BreakGlassReview, w: Wording = plainWording): string {
  const by = review.closers.map((c) => `${w.who(c.actorId, c.person)}: ${w.text(c.reason)}`);
  const done = by.length === 0 ? '' : ` (${by.join('; ')})`;
  return review.closedAt === undefined
    ? `Review open: closed by ${review.closers.length} of ${review.needed} (role ${review.role})${done}`
    : `Review closed at ${w.time(review.closedAt)} by ${people(review.closers.length)}${done}`;
}

/** The lines `approvals show` adds for an approval whose glass was broken. */
export function breakGlassLines(review: BreakGlassReview, w: Wording = plainWording): string[] {
  return [
    `Break-glass by ${w.who(review.actorId, review.person)} at ${w.time(review.at)}: ${w.text(review.reason)}`,
    reviewState(review, w),
  ];
}

/** One line of the digest's open reviews. */
export function openReviewLine(review: BreakGlassReview, w: Wording = plainWording): string {
  return `\`${review.approvalId}\` by ${w.who(review.actorId, review.person)} at ${w.time(review.at)}: ${w.text(review.reason)} — closed by ${review.closers.length} of ${review.needed}`;
}

/** The cap a break-glass runs under, as its page shows it: `10,000.00 USD (policy breakGlass.max)`. */
export const breakGlassCapWords = (cap: Money): string => `${formatAmount(cap)} (policy breakGlass.max)`;
