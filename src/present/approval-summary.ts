import { z } from 'zod';
import { APPROVAL_STATES, type ApprovalView } from '../core/approvals/types.js';
import { approvalLines, ruleWords, settlementLine, statusLine } from './approval-words.js';
import { missingPeopleWords } from './quorum-words.js';

/**
 * The part of an approval an assistant needs to tell its user what happens next. It is in the
 * output schema of every write, so its fields go undescribed: their names say it, and the
 * envelope's description says the rest (get_approval has the full view).
 */
const ApprovalSummarySchema = z.object({
  state: z.enum(APPROVAL_STATES),
  summary: z.string(),
  requiredApprovers: z.number(),
  approverRole: z.string(),
  expiresAt: z.string(),
  next: z.string(),
});
export type ApprovalSummary = z.infer<typeof ApprovalSummarySchema>;

function nextStep(view: ApprovalView): string {
  const follow = `Follow it with get_approval {"approvalId":"${view.id}"}.`;
  switch (view.state) {
    case 'pending': {
      const signed = view.stepUp === undefined ? '' : ', each confirming with a passkey on the approval page';
      return `Nothing has happened yet. ${missingPeopleWords(view)} (never the requester) must approve, in Slack or with \`bankops approvals approve ${view.id}\`${signed}; the last approval runs ${view.tool} at once. If nobody approves by ${view.expiresAt} it expires and nothing happens. ${follow}`;
    }
    case 'approved':
    case 'executing':
      return `Approved; bankops is running ${view.tool} now. ${follow}`;
    case 'succeeded':
      return `${settlementLine(view) ?? `Done: ${view.tool} ran`}. get_approval shows its result${view.settlement?.outcome === 'settling' ? ' and, later, its final status' : ''}.`;
    case 'failed':
      return `${statusLine(view)}. Nothing was done; a new request may be made.`;
    case 'rejected':
    case 'cancelled':
    case 'expired':
      return `The request was ${view.state}; nothing happened. Ask again if it is still wanted.`;
    case 'unresolved':
      return `Sent, but whether ${view.tool} happened is not known: a person must look up request ${view.requestId} at the service and reconcile it. Do not ask again before that.`;
  }
}

export function approvalSummary(view: ApprovalView): ApprovalSummary {
  return {
    state: view.state,
    // The policy's reason says which rule and how many approvers; the facts say what, with amounts.
    summary: [...approvalLines(view), ruleWords(view)].join('. '),
    requiredApprovers: view.requiredApprovers,
    approverRole: view.approverRole,
    expiresAt: view.expiresAt,
    next: nextStep(view),
  };
}
