import type { ApprovalView } from '../../core/approvals/types.js';
import { canApprove } from '../../core/policy/actors.js';
import type { Policy } from '../../core/policy/schema.js';
import type { Actor } from '../../core/policy/types.js';
import {
  context,
  escapeText,
  header,
  LIMITS,
  pageBlocks,
  type SlackMessage,
  sections,
} from '../render/message.js';

const lineOf = (a: ApprovalView): string => {
  const what = a.preview?.summary ?? a.reason;
  return `• \`${a.id}\` ${escapeText(what)}: ${a.approvals.length} of ${a.requiredApprovers} approvals, by ${escapeText(a.requester)}, expires ${escapeText(a.expiresAt)}`;
};

/**
 * `/bank approvals`, for now a list (the approval messages with buttons come with the change feed):
 * the pending approvals this person may decide (holding the role, not theirs, not voted yet), then
 * their own. Long lists go on over more messages.
 */
export function approvalsMessages(
  approvals: readonly ApprovalView[],
  actor: Actor,
  policy: Policy,
): SlackMessage[] {
  const pending = approvals.filter((a) => a.state === 'pending');
  const mine = pending.filter((a) => a.requester === actor.id);
  const forMe = pending.filter(
    (a) =>
      a.requester !== actor.id &&
      canApprove(policy, actor, a.approverRole) &&
      !a.approvals.some((vote) => vote.approver === actor.id),
  );
  const body = [
    ...sections(`*Waiting for you* (${forMe.length})\n${forMe.map(lineOf).join('\n') || '_nothing_'}`),
    ...sections(
      `*Yours, waiting for others* (${mine.length})\n${mine.map(lineOf).join('\n') || '_nothing_'}`,
    ),
    context('Decide with `bankops approvals approve <id>` or `bankops approvals reject <id> --reason …`.'),
  ];
  const pages = pageBlocks(body, LIMITS.messageBlocks - 1);
  return pages.map((blocks, i) => ({
    text: `Approvals: ${forMe.length} waiting for you, ${mine.length} of yours`,
    blocks: i === 0 ? [header('Approvals'), ...blocks] : blocks,
  }));
}
