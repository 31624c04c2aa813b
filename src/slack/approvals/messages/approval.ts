import type { types } from '@slack/bolt';
import type { ApprovalView, PreviewFacts } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import type { Registry } from '../../../core/registry.js';
import { resultFacts } from '../../../present/approval-outcome.js';
import {
  approvalLines,
  retryQuoteWords,
  ruleWords,
  sentBackLine,
  statusLine,
  whatWillHappen,
} from '../../../present/approval-words.js';
import { roleOrGroupsWords, votesWords } from '../../../present/quorum-words.js';
import { decisionRef } from '../../metadata.js';
import {
  type Block,
  type Button,
  button,
  clip,
  context,
  escapeText,
  fieldSections,
  plain,
  type SlackMessage,
  sections,
} from '../../render/message.js';
import { APPROVAL_ACTIONS } from '../ids.js';
import { askedBy, slackWording } from './wording.js';

/**
 * The approval message (docs/slack.md "Approvals"): a status line updated in place, what will happen
 * in words, who asked and from where, the rule, the votes so far with who and when, the deadline,
 * and Approve / Reject while it waits. A final state drops the buttons and says how it ended.
 */

/** ⏳ waiting, ✅ done, ❌ refused or rejected, ⌛ expired. */
function statusEmoji(view: ApprovalView): string {
  switch (view.state) {
    case 'pending':
      return view.attempt > 1 ? ':leftwards_arrow_with_hook:' : ':hourglass_flowing_sand:';
    case 'approved':
    case 'executing':
      return view.retryingUntil === undefined ? ':gear:' : ':arrows_counterclockwise:';
    case 'succeeded':
      return view.settlement?.outcome === 'failed'
        ? ':x:'
        : view.settlement?.outcome === 'unknown'
          ? ':warning:'
          : ':white_check_mark:';
    case 'failed':
    case 'rejected':
      return ':x:';
    case 'expired':
      return ':hourglass:';
    case 'cancelled':
      return ':no_entry_sign:';
    case 'unresolved':
      return ':warning:';
  }
}

/** Permanent card blocks and subscription deletions are confirmed in a dialog before the vote counts. */
function isDestructive(view: ApprovalView, registry: Registry): boolean {
  const facts: PreviewFacts | undefined = view.preview?.facts;
  if (facts?.kind === 'card_status') return facts.permanent;
  if (facts?.kind === 'subscription_delete') return true;
  return registry.get(view.tool)?.hints.destructive === true && facts === undefined;
}

const toolTitle = (view: ApprovalView, registry: Registry): string =>
  registry.get(view.tool)?.title ?? view.tool;

function confirmDialog(view: ApprovalView): types.ConfirmationDialog {
  const what = whatWillHappen(view);
  return {
    title: plain('Cannot be undone', 100),
    text: { type: 'plain_text', text: clip(`${what.join('. ')}. Approve it?`, 300) },
    confirm: plain('Approve', 30),
    deny: plain('Back', 30),
    style: 'danger',
  };
}

/** Approve (primary) and Reject (danger), each naming the attempt it was shown for. */
export function decisionButtons(view: ApprovalView, registry: Registry): Button[] {
  const ref = decisionRef.encode({ approvalId: view.id, attempt: view.attempt });
  const approve = button('Approve', APPROVAL_ACTIONS.approve, ref, 'primary');
  if (isDestructive(view, registry)) approve.confirm = confirmDialog(view);
  return [approve, button('Reject', APPROVAL_ACTIONS.reject, ref, 'danger')];
}

/** A time in plain text (a dialog shows no Slack date tokens): `2026-11-29 20:00:21 UTC`. */
const plainUtc = (iso: string): string =>
  Number.isNaN(Date.parse(iso)) ? iso : `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * Before Send again re-sends the stored quote: until when it holds, and the way on after it (mark
 * it not sent, then Ask again), in the words every front end uses.
 */
function sendAgainDialog(view: ApprovalView): types.ConfirmationDialog {
  const words =
    view.quoteExpiresAt === undefined
      ? `It is sent once more with the same request id ${view.requestId}; the service never pays it twice`
      : retryQuoteWords(view.quoteExpiresAt, { time: plainUtc });
  return {
    title: plain('Send it again?', 100),
    text: { type: 'plain_text', text: clip(`${words}.`, 300) },
    confirm: plain('Send again', 30),
    deny: plain('Back', 30),
    style: 'danger',
  };
}

/** Sent, Not sent, Send again: each naming the approval and the attempt the clicker was shown. */
function reconcileButtons(view: ApprovalView): Button[] {
  const ref = decisionRef.encode({ approvalId: view.id, attempt: view.attempt });
  const again = button('Send again', APPROVAL_ACTIONS.reconcileRetry, ref, 'danger');
  again.confirm = sendAgainDialog(view);
  return [
    button('Sent', APPROVAL_ACTIONS.reconcileSent, ref, 'primary'),
    button('Not sent', APPROVAL_ACTIONS.reconcileNotSent, ref),
    again,
  ];
}

/** Marked not sent (failed, with who decided): nothing left, so the request may be made again. */
const markedNotSent = (view: ApprovalView): boolean =>
  view.state === 'failed' && view.decidedBy !== undefined;

/** The lines above the buttons of an unresolved approval: what to look up, and where. */
const lookUpLine = (view: ApprovalView): string =>
  `*Look up request id* \`${view.requestId}\` *at the service*, then say what you found: *Sent*, *Not sent*, or *Send again* (same request id, never paid twice).`;

/** How it ended, below the facts: the result's id and status, or the service's refusal. */
function outcomeText(view: ApprovalView): string | undefined {
  switch (view.state) {
    case 'succeeded': {
      // The latest status the service gave, not the one it answered when it ran.
      const latest =
        view.settlement === undefined ? view.result : { ...view.result, status: view.settlement.status };
      return `*Result:* ${escapeText(`${view.tool} ran${resultFacts(latest)}`)}`;
    }
    case 'failed':
      return view.error === undefined ? undefined : `*Error:* ${escapeText(view.error.message)}`;
    case 'unresolved':
      return lookUpLine(view);
    default:
      return undefined;
  }
}

export interface ApprovalMessageContext {
  policy: Pick<Policy, 'actors'>;
  registry: Registry;
}

/** The blocks of an approval message, for `chat.postMessage` and every `chat.update` after. */
export function approvalMessage(view: ApprovalView, ctx: ApprovalMessageContext): SlackMessage {
  const w = slackWording(ctx.policy);
  const status = `${statusEmoji(view)} *${statusLine(view, w)}*`;
  const what = approvalLines(view).map((line) => `• ${escapeText(line)}`);
  const title = toolTitle(view, ctx.registry);
  const votes = view.approvals.map(
    (vote) => `:white_check_mark: ${w.who(vote.approver, vote.person)}, ${w.time(vote.at)}`,
  );
  const sentBack = sentBackLine(view, w);
  const outcome = outcomeText(view);
  const blocks: Block[] = [
    ...sections(status),
    ...sections(`*${escapeText(title)}* (\`${view.tool}\`)\n${what.join('\n')}`),
    ...fieldSections([
      { label: 'Asked by', value: askedBy(ctx.policy, view) },
      { label: 'Rule', value: escapeText(ruleWords(view)) },
      {
        label: 'Approvals',
        value: `${votesWords(view)} (${escapeText(roleOrGroupsWords(view))}, never the requester${view.stepUp === undefined ? '' : '; Approve opens a page to confirm with your passkey'})`,
      },
      ...(view.state === 'pending' ? [{ label: 'Deadline', value: w.time(view.expiresAt) }] : []),
    ]),
    ...(votes.length === 0 ? [] : sections(`*Votes*\n${votes.join('\n')}`)),
    ...(sentBack === undefined ? [] : sections(`:leftwards_arrow_with_hook: ${sentBack}`)),
    ...(outcome === undefined ? [] : sections(outcome)),
  ];
  if (view.state === 'pending' || view.state === 'unresolved') {
    blocks.push({
      type: 'actions',
      block_id: `approval:${view.id}:${view.attempt}`,
      elements: view.state === 'pending' ? decisionButtons(view, ctx.registry) : reconcileButtons(view),
    });
  } else if (markedNotSent(view)) {
    const ref = decisionRef.encode({ approvalId: view.id, attempt: view.attempt });
    blocks.push({
      type: 'actions',
      block_id: `approval:${view.id}:${view.attempt}`,
      elements: [button('Ask again', APPROVAL_ACTIONS.askAgain, ref, 'primary')],
    });
  }
  blocks.push(
    context(
      `\`${view.id}\`${view.attempt > 1 ? ` · attempt ${view.attempt}` : ''} · request id \`${view.requestId}\`` +
        (view.state === 'pending' ? ` · or \`bankops approvals approve ${view.id}\`` : '') +
        (view.state === 'unresolved'
          ? ` · or \`bankops approvals reconcile ${view.id} --sent|--not-sent|--retry\``
          : '') +
        (markedNotSent(view) ? ` · or \`bankops approvals ask-again ${view.id}\`` : ''),
    ),
  );
  const first = approvalLines(view)[0] ?? view.tool;
  return {
    text: clip(`${statusEmoji(view)} ${escapeText(`${title}: ${first} (${statusLine(view)})`)}`, 400),
    blocks,
  };
}
