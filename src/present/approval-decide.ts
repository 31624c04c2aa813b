import { type ApprovalView, closedReason } from '../core/approvals/types.js';
import { canApprove, personOf } from '../core/policy/actors.js';
import type { Policy } from '../core/policy/schema.js';
import type { Actor } from '../core/policy/types.js';

/**
 * Whose approval is whose, for lists and for asking before a decision: which pending approvals a
 * person may decide, which are their own. The core judges every vote and rejection again when it is
 * made; this only spares someone a form (a reject reason) they could not submit.
 */

/** Whether the approval was asked for by this actor, under any identity of the same person. */
export function isOwnApproval(policy: Pick<Policy, 'actors'>, actor: Actor, view: ApprovalView): boolean {
  return actor.id === view.requester || personOf(policy, actor) === view.requesterPerson;
}

/** Why this actor cannot approve or reject the approval now, in words for them; undefined when they can. */
export function whyNotDecide(
  policy: Pick<Policy, 'actors'>,
  actor: Actor,
  view: ApprovalView,
): string | undefined {
  if (view.state !== 'pending') return closedReason(view.id, view.state);
  if (isOwnApproval(policy, actor, view)) {
    return `you asked for ${view.id}, so someone else with the role ${view.approverRole} decides it (you may cancel it)`;
  }
  if (!canApprove(policy, actor, view.approverRole)) {
    return `deciding ${view.id} needs the role ${view.approverRole}, which you do not hold`;
  }
  const person = personOf(policy, actor);
  if (view.approvals.some((vote) => vote.person === person)) return `you already approved ${view.id}`;
  return undefined;
}

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
