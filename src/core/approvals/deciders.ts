import { canApprove, personOf, roleWords } from '../policy/actors.js';
import type { Policy } from '../policy/schema.js';
import type { Actor } from '../policy/types.js';
import { approverRolesOf } from './quorum.js';
import { type ApprovalView, closedReason } from './view-schema.js';

/**
 * Who may decide an approval, asked before a decision: every front end's lists and buttons (through
 * src/present) and the passkey links (a link is made only for someone who may vote). The engine
 * judges every vote and rejection again when it is made; this spares people a form or a link they
 * could not use.
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
  if (!canApprove(policy, actor, approverRolesOf(view))) {
    return `deciding ${view.id} needs the role ${roleWords(approverRolesOf(view))}, which you do not hold`;
  }
  const person = personOf(policy, actor);
  if (view.approvals.some((vote) => vote.person === person)) return `you already approved ${view.id}`;
  return undefined;
}

/**
 * Why this actor cannot settle the `unresolved` approval (say it was sent, not sent, or send it
 * again), in words for them; undefined when they can: the approver role, never the requester.
 */
export function whyNotReconcile(
  policy: Pick<Policy, 'actors'>,
  actor: Actor,
  view: ApprovalView,
): string | undefined {
  if (view.state !== 'unresolved') return closedReason(view.id, view.state);
  if (isOwnApproval(policy, actor, view)) {
    return `you asked for ${view.id}, so someone else with the role ${view.approverRole} settles it`;
  }
  if (!canApprove(policy, actor, approverRolesOf(view))) {
    return `settling ${view.id} needs the role ${roleWords(approverRolesOf(view))}, which you do not hold`;
  }
  return undefined;
}
