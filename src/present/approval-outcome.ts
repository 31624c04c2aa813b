import type { ApprovalActionResult, ApprovalView, Settlement } from '../core/approvals/types.js';
import type { Money } from '../core/tool.js';
import { settlementLine } from './approval-words.js';
import { amountValue } from './output/format.js';
import { actorName, nameActors } from './people.js';
import { missingPeopleWords, votesWords } from './quorum-words.js';

/**
 * What an approve, reject or cancel did, in one line for people and one word for scripts, and how a
 * front end should treat it: the CLI's exit code, Slack's message tone. Every front end words the
 * answer from here, so "executed" never stands for a payout that failed.
 */

/** The outcome class a front end maps to its own signal (the CLI: exit 0, 1, 2, 3, 4). */
export type OutcomeClass = 'ok' | 'failed' | 'invalid' | 'denied' | 'unfinished';

export type ApprovalOutcomeStatus =
  /** A vote was recorded; the quorum is not complete yet. */
  | 'voted'
  /** The vote completed the quorum and the operation ran. */
  | 'executed'
  /** The vote completed the quorum and the service refused the operation. */
  | 'failed'
  /** A fresh quote fell outside the approved bound: back to the approvers, nothing sent. */
  | 'sent_back'
  /** The operation was sent and its outcome is not known yet (re-sends follow). */
  | 'unknown'
  /** The outcome stayed unknown after the re-sends: a person must look it up and reconcile it. */
  | 'unresolved'
  /** A person settled an unresolved approval: it happened, or it did not. */
  | 'reconciled'
  | 'rejected'
  | 'cancelled'
  /** The approval was past its time (or already expired). */
  | 'expired'
  /** The action was refused (own request, wrong role, not pending, voted twice). */
  | 'refused'
  | 'not_found';

export interface ApprovalOutcome {
  status: ApprovalOutcomeStatus;
  /** One sentence on what happened and what happens next. */
  line: string;
  class: OutcomeClass;
}

export type ApprovalAction = 'approve' | 'reject' | 'cancel' | 'reconcile';

const money = (m: Money): string => amountValue(m.amount, m.currency).text;

/** The id and status a result names first (`payoutId po_…`, `status PENDING`), for the one line. */
export function resultFacts(result: Readonly<Record<string, unknown>> | undefined): string {
  if (result === undefined) return '';
  const id = Object.entries(result).find(
    ([key, value]) => typeof value === 'string' && /(^id$|Id$|_id$)/.test(key) && key !== 'requestId',
  );
  const status = typeof result.status === 'string' ? result.status : undefined;
  const facts = [
    id === undefined ? undefined : `${id[0]} ${String(id[1])}`,
    status === undefined ? undefined : `status ${status}`,
  ];
  const shown = facts.filter((f) => f !== undefined);
  return shown.length === 0 ? '' : ` (${shown.join(', ')})`;
}

const SETTLED: Record<Settlement['outcome'], (s: Settlement) => string> = {
  settling: (s) => `sent; ${s.status} at the service`,
  completed: (s) => `sent; ${s.status}`,
  failed: (s) => `sent; ${s.status} after approval`,
  unknown: () => 'sent; final status unknown',
};

/**
 * The state of an approval in a few words for a list, with what became of sent money: `succeeded
 * (sent; FAILED after approval)`. The sentence is `settlementLine` (approval-words.ts).
 */
export function stateWords(view: ApprovalView): string {
  if (view.state === 'succeeded' && view.settlement !== undefined)
    return `succeeded (${SETTLED[view.settlement.outcome](view.settlement)})`;
  return view.state;
}

/** The outcome of an approval whose action went through, by the state it is in now. */
function byState(action: ApprovalAction, view: ApprovalView): ApprovalOutcome {
  const { id, tool } = view;
  switch (view.state) {
    case 'pending': {
      if (action === 'approve' && view.attempt > 1 && view.approvals.length === 0) {
        const bound =
          view.preview?.bound === undefined ? '' : `; the new limit is ${money(view.preview.bound)}`;
        return {
          status: 'sent_back',
          class: 'unfinished',
          line: `Not executed: ${view.error?.message ?? `a fresh quote for ${tool} was outside the approved bound`}. ${id} went back to the approvers (attempt ${view.attempt})${bound}; nothing was sent.`,
        };
      }
      return {
        status: 'voted',
        class: 'ok',
        line: `Vote recorded on ${id}: ${votesWords(view)} approvals; ${missingPeopleWords(view)} must approve before ${tool} runs.`,
      };
    }
    case 'approved':
    case 'executing':
      return {
        status: 'unknown',
        class: 'unfinished',
        line: `Outcome unknown: ${tool} was sent for ${id} and the service has not answered. It stays ${view.state} and is sent again with the same request id ${view.requestId} (never twice at the service)${view.retryingUntil === undefined ? '' : `, in the background until ${view.retryingUntil}`}; the approval will show how it ends.`,
      };
    case 'unresolved':
      return {
        status: 'unresolved',
        class: 'unfinished',
        line: `Outcome unknown: ${tool} was sent for ${id} and no answer came after every re-send, so it may or may not have happened. Look up request id ${view.requestId} at the service, then reconcile ${id} as succeeded or failed (or send it again); do not ask again before that.`,
      };
    case 'succeeded': {
      if (action === 'reconcile')
        return {
          status: 'reconciled',
          class: 'ok',
          line: `Reconciled ${id} as succeeded: ${view.decisionReason ?? ''}.`,
        };
      const settled = settlementLine(view);
      const failedLater = view.settlement?.outcome === 'failed';
      return {
        status: failedLater ? 'failed' : 'executed',
        class: failedLater ? 'failed' : 'ok',
        line: `Executed: ${tool} ran for ${id}${resultFacts(view.result)}.${settled === undefined ? '' : ` ${settled}.`}`,
      };
    }
    case 'failed':
      if (action === 'reconcile')
        return {
          status: 'reconciled',
          class: 'ok',
          line: `Reconciled ${id} as failed: ${view.decisionReason ?? ''}. Nothing was done; a new request may be made.`,
        };
      return {
        status: 'failed',
        class: 'failed',
        line: `Failed: ${tool} was refused for ${id}: ${view.error?.message ?? 'no message from the service'}. Nothing was done.`,
      };
    case 'rejected':
      return {
        status: 'rejected',
        class: 'ok',
        line: `Rejected ${id}${view.decisionReason === undefined ? '' : `: ${view.decisionReason}`}. ${tool} will not run.`,
      };
    case 'cancelled':
      return { status: 'cancelled', class: 'ok', line: `Cancelled ${id}. ${tool} will not run.` };
    case 'expired':
      return {
        status: 'expired',
        class: 'denied',
        line: `${id} expired at ${view.expiresAt} without its approvals. ${tool} will not run; ask again if it is still wanted.`,
      };
  }
}

/** The outcome of `approve`, `reject`, `cancel` or `reconcile` on an approval. */
export function approvalOutcome(
  action: ApprovalAction,
  result: ApprovalActionResult,
  who: (actorId: string) => string = actorName,
): ApprovalOutcome {
  switch (result.status) {
    case 'not_found':
      return { status: 'not_found', class: 'invalid', line: `${capitalize(result.reason)}.` };
    case 'refused':
      if (result.approval?.state === 'expired') return byState(action, result.approval);
      return {
        status: 'refused',
        class: 'denied',
        line: `Refused: ${nameActors(result.reason, who).replace(/\.$/, '')}.`,
      };
    case 'ok':
      return byState(action, result.approval);
  }
}

const capitalize = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
