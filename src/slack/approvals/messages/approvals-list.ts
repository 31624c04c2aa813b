import type { ApprovalView } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import type { Actor } from '../../../core/policy/types.js';
import { approvalsOf } from '../../../present/approval-decide.js';
import { approvalLines } from '../../../present/approval-words.js';
import {
  context,
  escapeText,
  header,
  LIMITS,
  pageBlocks,
  type SlackMessage,
  sections,
} from '../../render/message.js';
import { askedBy, slackTime } from './wording.js';

/** One approval in a line, in the words of its message: people as mentions, dates as Slack shows them. */
const lineOf = (a: ApprovalView, policy: Pick<Policy, 'actors'>): string => {
  const what = approvalLines(a)[0] ?? a.reason;
  return `• \`${a.id}\` ${escapeText(what)}: ${a.approvals.length} of ${a.requiredApprovers} approvals, asked by ${askedBy(policy, a)}, expires ${slackTime(a.expiresAt)}`;
};

/**
 * `/bank approvals`: the pending approvals this person may decide, then their own, by the same rule
 * as the App Home and the CLI (`approvalsOf` in src/present: per person, not per identity). Long
 * lists go on over more messages.
 */
export function approvalsMessages(
  approvals: readonly ApprovalView[],
  actor: Actor,
  policy: Pick<Policy, 'actors'>,
): SlackMessage[] {
  const { forMe, mine } = approvalsOf(policy, actor, approvals);
  const list = (views: readonly ApprovalView[]) =>
    views.map((view) => lineOf(view, policy)).join('\n') || '_nothing_';
  const body = [
    ...sections(`*Waiting for you* (${forMe.length})\n${list(forMe)}`),
    ...sections(`*Yours, waiting for others* (${mine.length})\n${list(mine)}`),
    context('Decide with `bankops approvals approve <id>` or `bankops approvals reject <id> --reason …`.'),
  ];
  const pages = pageBlocks(body, LIMITS.messageBlocks - 1);
  return pages.map((blocks, i) => ({
    text: `Approvals: ${forMe.length} waiting for you, ${mine.length} of yours`,
    blocks: i === 0 ? [header('Approvals'), ...blocks] : blocks,
  }));
}
