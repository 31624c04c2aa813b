import type { ApprovalView } from '../core/approvals/types.js';

/**
 * Who an approval still waits for, in the words every front end uses: `1 more approver with role
 * approver`, or for a quorum from several groups the groups still short, `1 controller` or
 * `1 treasury and 2 people with role controller`.
 */

type QuorumView = Pick<ApprovalView, 'requiredApprovers' | 'approverRole' | 'approvals' | 'groups'>;

const count = (n: number, role: string): string => (n === 1 ? `1 ${role}` : `${n} people with role ${role}`);

const and = (parts: readonly string[]): string =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/** The approvers still missing (at least one while the approval waits). */
export function waitingForWords(view: QuorumView): string {
  if (view.groups !== undefined) {
    const short = view.groups.filter((g) => g.approved < g.approvers);
    // Every seat is filled by someone who no longer counts elsewhere: one more of the first group.
    if (short.length === 0) return count(1, view.groups[0]?.role ?? view.approverRole);
    return and(short.map((g) => count(g.approvers - g.approved, g.role)));
  }
  const missing = Math.max(view.requiredApprovers - view.approvals.length, 1);
  return `${missing === 1 ? '1 more approver' : `${missing} more approvers`} with role ${view.approverRole}`;
}

/** `1 more person with role approver` (an assistant's and a voter's words); for groups, `1 controller`. */
export function missingPeopleWords(view: QuorumView): string {
  if (view.groups !== undefined) return waitingForWords(view);
  const missing = Math.max(view.requiredApprovers - view.approvals.length, 1);
  return `${missing === 1 ? '1 more person' : `${missing} more people`} with role ${view.approverRole}`;
}

/** `role approver`, or for groups `1 treasury and 1 controller`. */
export function roleOrGroupsWords(
  view: Pick<ApprovalView, 'requiredApprovers' | 'approverRole' | 'groups'>,
): string {
  return view.groups === undefined ? `role ${view.approverRole}` : quorumNeedsWords(view);
}

/** What the approval asks in all: `2 approvers with role approver`, `1 treasury and 1 controller`. */
export function quorumNeedsWords(
  view: Pick<ApprovalView, 'requiredApprovers' | 'approverRole' | 'groups'>,
): string {
  if (view.groups !== undefined) return and(view.groups.map((g) => count(g.approvers, g.role)));
  return `${view.requiredApprovers} approver${view.requiredApprovers === 1 ? '' : 's'} with role ${view.approverRole}`;
}

/** `1 of 2` votes, and for groups how each stands: `1 of 2 (treasury 1 of 1, controller 0 of 1)`. */
export function votesWords(view: QuorumView): string {
  const counted = view.groups?.reduce((sum, g) => sum + g.approved, 0) ?? view.approvals.length;
  const groups =
    view.groups === undefined
      ? ''
      : ` (${view.groups.map((g) => `${g.role} ${g.approved} of ${g.approvers}`).join(', ')})`;
  return `${counted} of ${view.requiredApprovers}${groups}`;
}
