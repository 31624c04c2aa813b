import type { ApprovalView } from '../../../core/approvals/types.js';
import { approvalSummary } from '../../../present/approval-summary.js';
import { whatWillHappen } from '../../../present/approval-words.js';
import { quorumNeedsWords } from '../../../present/quorum-words.js';
import type { SlackConfig } from '../../config.js';
import { context, escapeText, type SlackMessage, sections } from '../../render/message.js';
import { approvalChannel } from '../post.js';
import { slackTime } from './wording.js';

const people = (n: number): string => (n === 1 ? '1 approver' : `${n} approvers`);

/** Waiting, with no channel to post it in: approvers decide with the CLI. */
function unpostedMessage(approval: ApprovalView): SlackMessage {
  const summary = approvalSummary(approval);
  const missing = Math.max(approval.requiredApprovers - approval.approvals.length, 0);
  const text = `:hourglass_flowing_sand: Waiting for approval: ${escapeText(summary.summary)}`;
  return {
    text,
    blocks: [
      ...sections(text),
      context(
        `Nothing has happened yet. Needs ${people(missing)} with role ${escapeText(approval.approverRole)}, never you, by ${slackTime(approval.expiresAt)}. ` +
          `Approval \`${approval.id}\`: approvers decide with \`bankops approvals approve ${approval.id}\`.`,
      ),
    ],
  };
}

/** Waiting, posted for approvers: what, where the approvers see it, how the requester hears back. */
function postedMessage(view: ApprovalView, channel: string, askedIn: string): SlackMessage {
  const what = whatWillHappen(view).map((line) => `• ${escapeText(line)}`);
  const text = `:hourglass_flowing_sand: *Waiting for approval*\n${what.join('\n')}`;
  const where = channel === askedIn ? 'in this channel' : `in <#${channel}>`;
  const needs = escapeText(quorumNeedsWords(view));
  return {
    text,
    blocks: [
      ...sections(text),
      context(
        `Nothing has happened yet. Posted for ${needs} ${where}. bankops tells you by direct message how it ends. \`${view.id}\` · to withdraw it, Cancel on bankops's App Home.`,
      ),
    ],
  };
}

/** The answer to the person whose request now waits for approval, asked in channel `askedIn`. */
export function requestedMessage(
  view: ApprovalView,
  askedIn: string,
  config: Pick<SlackConfig, 'approvalsChannel'>,
): SlackMessage {
  const channel = approvalChannel(view, config);
  return channel === undefined ? unpostedMessage(view) : postedMessage(view, channel, askedIn);
}
