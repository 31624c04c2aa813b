import type { ApprovalView } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import type { ApprovalOutcome } from '../../../present/approval-outcome.js';
import { nameActors } from '../../../present/people.js';
import { escapeText, line, type SlackMessage } from '../../render/message.js';
import { whoInSlack } from './wording.js';

/**
 * The answers to the person who clicked a button of an approval (on its message or the App Home)
 * or submitted its form, seen by them alone: what the click did, in the line every front end says
 * (`approvalOutcome`, src/present/approval-outcome.ts), or why it did nothing. Lines for a form
 * (`FORM`) are shown in place, under its reason field.
 */

const EMOJI: Record<ApprovalOutcome['class'], string> = {
  ok: ':white_check_mark:',
  failed: ':x:',
  invalid: ':warning:',
  denied: ':no_entry:',
  unfinished: ':hourglass_flowing_sand:',
};

/** The one line of an outcome, people named as Slack shows them (mentions for Slack users). */
export const outcomeLine = (outcome: ApprovalOutcome, policy: Pick<Policy, 'actors'>): SlackMessage =>
  line(`${EMOJI[outcome.class]} ${nameActors(escapeText(outcome.line), (id) => whoInSlack(policy, id))}`);

export const BROKEN = line(
  ':warning: This button names no approval bankops knows; `/bank approvals` lists them.',
);

/** Approve on a quote that has since been replaced: the approver has not seen the new one. */
export const newQuoteLine = (approvalId: string, attempt: number): SlackMessage =>
  line(
    `:leftwards_arrow_with_hook: Not recorded: \`${approvalId}\` has a new quote since you saw it (attempt ${attempt}). Read it in the message and decide again.`,
  );

/** Reject by someone who could not reject it anyway: why, before any form opens. */
export const notRejectedLine = (why: string): SlackMessage => line(`:no_entry: Not rejected: ${why}.`);

/** Why a form or button of an earlier attempt settles nothing: the attempt and request id now. */
export const changedSince = (view: ApprovalView): string =>
  `\`${view.id}\` changed since you looked: it is now attempt ${view.attempt}, request \`${view.requestId}\` (${view.state}); look it up again`;

/** Sent, Not sent or Send again that settles nothing: a button of an earlier attempt, or who may not. */
export const notSettledLine = (view: ApprovalView, why: string | undefined): SlackMessage =>
  why === undefined
    ? line(`:leftwards_arrow_with_hook: Not settled: ${changedSince(view)}.`)
    : line(`:no_entry: Not settled: ${why}.`);

/** What a reject or reconcile form says under its reason field when it cannot go on. */
export const FORM = {
  rejectNoApproval: 'This form names no approval; close it and click Reject again.',
  reconcileNoApproval: 'This form names no approval; close it and click again.',
  rejectWhy: 'Say why: the requester reads it and the audit log keeps it. Spaces alone are not a reason.',
  reconcileWhat: 'Say what you found at the service: the audit log keeps it.',
  notSettled: (why: string): string => `Not settled: ${why}.`,
} as const;
