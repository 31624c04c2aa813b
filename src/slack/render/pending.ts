import type { ApprovalView } from '../../core/approvals/types.js';
import { approvalSummary } from '../../present/approval-summary.js';
import { context, escapeText, type SlackMessage, sections } from './message.js';

const people = (n: number): string => (n === 1 ? '1 approver' : `${n} approvers`);

/** A request that now waits for approvers, told to the person who asked (ephemeral). */
export function pendingMessage(approval: ApprovalView): SlackMessage {
  const summary = approvalSummary(approval);
  const missing = Math.max(approval.requiredApprovers - approval.approvals.length, 0);
  const text = `:hourglass_flowing_sand: Waiting for approval: ${escapeText(summary.summary)}`;
  return {
    text,
    blocks: [
      ...sections(text),
      context(
        `Needs ${people(missing)} with role ${escapeText(approval.approverRole)}, never you. Expires ${escapeText(approval.expiresAt)}. ` +
          `Approval \`${approval.id}\`: approvers decide with \`bankops approvals approve ${approval.id}\`; nothing happens before.`,
      ),
    ],
  };
}
