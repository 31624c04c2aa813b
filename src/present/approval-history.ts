import type { ApprovalEvent, ApprovalView } from '../core/approvals/types.js';
import { resultFacts } from './approval-outcome.js';
import { plainWording, settlementLine, type Wording } from './approval-words.js';

/**
 * One change of an approval in one sentence, for a history a person reads (Slack's thread under the
 * approval message, a requester's notice): who did what, and when. The event says what changed; the
 * view (as it is now) supplies what the event does not carry, such as the result of a run.
 */

/** "1 of 2" for a vote of the current attempt; nothing for a vote of an earlier one. */
function count(event: ApprovalEvent, view: ApprovalView): string {
  if (event.attempt !== view.attempt) return '';
  const at = view.approvals.findIndex((vote) => vote.approver === event.actor);
  return at === -1 ? '' : ` (${at + 1} of ${view.requiredApprovers})`;
}

const by = (event: ApprovalEvent, w: Wording): string =>
  event.actor === undefined ? 'someone' : w.who(event.actor, event.person);

/** The sentence for one event; `undefined` for none worth a line of its own. */
export function eventLine(
  event: ApprovalEvent,
  view: ApprovalView,
  w: Wording = plainWording,
): string | undefined {
  const detail = event.detail === undefined ? '' : w.text(event.detail);
  switch (event.kind) {
    case 'opened':
      return `Asked by ${by(event, w)} at ${w.time(event.at)}`;
    case 'voted':
      return `Approved by ${by(event, w)} at ${w.time(event.at)}${count(event, view)}`;
    case 'executing':
      return event.detail === undefined
        ? `Enough approvals: running ${view.tool} now`
        : `Reconciled by ${by(event, w)}: ${detail}`;
    case 'taken_over':
      return `Taken over by ${detail}; running ${view.tool} again with the same request id`;
    case 'retrying':
      return view.retryingUntil === undefined
        ? `Service not answering: ${detail}`
        : `Service not answering: request ${view.requestId} is sent again until ${w.time(view.retryingUntil)}, then a person settles it`;
    case 'succeeded':
      return `Done: ${view.tool} ran${resultFacts(view.result)}`;
    case 'failed':
      return `Failed: ${view.tool} was refused: ${detail || 'no message from the service'}. Nothing was done`;
    case 'rejected':
      return `Rejected by ${by(event, w)}: ${detail}`;
    case 'cancelled':
      return `Cancelled by ${by(event, w)}: ${detail}`;
    case 'expired':
      return `Expired at ${w.time(view.expiresAt)} without enough approvals; nothing happened`;
    case 'requoted':
      return `Sent back to the approvers (attempt ${event.attempt}): ${detail}. Nothing was sent; the new quote needs approving again`;
    case 'unresolved':
      return `Outcome unknown: ${detail}`;
    case 'reconciled':
      return `Reconciled by ${by(event, w)}: ${detail}`;
    case 'settled':
      return settlementLine(view, w) ?? `Settled: ${detail}`;
    case 'break_glass':
      return `Break-glass by ${by(event, w)} at ${w.time(event.at)}, without its missing approvals: ${detail}. A review is now open`;
  }
}
