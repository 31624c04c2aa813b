import type { ApprovalView } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import { approvalLines } from '../../../present/approval-words.js';
import { context, escapeText, type SlackMessage, sections } from '../../render/message.js';
import { approverMentions } from '../approvers.js';
import { slackTime } from './wording.js';

const people = (n: number): string => (n === 1 ? '1 approval' : `${n} approvals`);

/**
 * A reminder in the approval message's thread: who may approve (mentioned, so Slack notifies them),
 * what waits, and the deadline. `n` of `of`: the second and last says so.
 */
export function reminderMessage(
  view: ApprovalView,
  policy: Pick<Policy, 'actors'>,
  n: number,
  of: number,
): SlackMessage {
  const mentions = approverMentions(policy, view);
  const who =
    mentions.length === 0
      ? `nobody in Slack holds role ${escapeText(view.approverRole)}: approvers decide with \`bankops approvals approve ${view.id}\``
      : mentions.join(' ');
  const what = escapeText(approvalLines(view)[0] ?? view.tool);
  const last = n === of ? ' (last reminder)' : '';
  const text = `:bell: Still waiting for approval${last}: ${what}. ${who}`;
  return {
    text,
    blocks: [
      ...sections(
        `:bell: *Still waiting for approval*${last}\n${what}\n` +
          `Needs ${people(view.requiredApprovers)} from role *${escapeText(view.approverRole)}*, never the requester, by ${slackTime(view.expiresAt)}; otherwise it expires and nothing happens.\n${who}`,
      ),
      context(`Reminder ${n} of ${of} · \`${view.id}\` · Approve or Reject on the message above`),
    ],
  };
}
