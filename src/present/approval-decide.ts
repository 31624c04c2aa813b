import { isOwnApproval, whyNotDecide, whyNotReconcile } from '../core/approvals/deciders.js';
import type { ApprovalView } from '../core/approvals/types.js';
import type { Policy } from '../core/policy/schema.js';
import type { Actor } from '../core/policy/types.js';

/**
 * Whose approval is whose, for lists and for asking before a decision: which pending approvals a
 * person may decide, which are their own. Who may decide is the core's (core/approvals/deciders.ts,
 * which the passkey links ask too); the front ends reach it here.
 */
export { isOwnApproval, whyNotDecide, whyNotReconcile };

/**
 * The pending approvals as a person sees them, in every front end: those waiting for them (they
 * may decide them now) and their own (asked for under any identity of the same person).
 */
export function approvalsOf(
  policy: Pick<Policy, 'actors'>,
  actor: Actor,
  views: readonly ApprovalView[],
): { forMe: ApprovalView[]; mine: ApprovalView[] } {
  const pending = views.filter((view) => view.state === 'pending');
  return {
    forMe: pending.filter((view) => whyNotDecide(policy, actor, view) === undefined),
    mine: pending.filter((view) => isOwnApproval(policy, actor, view)),
  };
}
