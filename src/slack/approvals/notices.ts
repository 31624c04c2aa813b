import {
  APPROVAL_EVENT_KINDS,
  type ApprovalEvent,
  type ApprovalEventKind,
  type ApprovalView,
} from '../../core/approvals/types.js';
import type { Policy } from '../../core/policy/schema.js';
import { eventLine } from '../../present/approval-history.js';
import { approvalLines } from '../../present/approval-words.js';
import { context, escapeText, type SlackMessage, sections } from '../render/message.js';
import { slackWording } from './people.js';

/**
 * The short messages an approval's changes cause besides the update in place: a reply in the
 * message's thread per decision (the history, with who and when), and a notice to the requester.
 */

/** Changes that get a line in the thread: every decision and what became of it. */
const THREAD: ReadonlySet<ApprovalEventKind> = new Set(
  APPROVAL_EVENT_KINDS.filter((kind) => kind !== 'opened' && kind !== 'executing'),
);

/** Changes the requester hears of: the same, but their own cancelling (`executing` is followed by its end). */
const REQUESTER: ReadonlySet<ApprovalEventKind> = new Set([...THREAD].filter((kind) => kind !== 'cancelled'));

/** A retry that a person asked for (reconciling) is news; the `executing` of a vote is not. */
export const inThread = (event: ApprovalEvent): boolean =>
  THREAD.has(event.kind) || (event.kind === 'executing' && event.detail !== undefined);

/** A vote that completed the quorum is not news of its own: the outcome follows at once. */
export const toRequester = (event: ApprovalEvent, view: ApprovalView): boolean =>
  REQUESTER.has(event.kind) &&
  !(event.kind === 'voted' && event.attempt === view.attempt && view.state !== 'pending');

function eventEmoji(event: ApprovalEvent, view: ApprovalView): string {
  switch (event.kind) {
    case 'opened':
      return ':inbox_tray:';
    case 'voted':
    case 'succeeded':
      return ':white_check_mark:';
    case 'executing':
      return ':gear:';
    case 'retrying':
      return ':arrows_counterclockwise:';
    case 'failed':
    case 'rejected':
      return ':x:';
    case 'cancelled':
      return ':no_entry_sign:';
    case 'expired':
      return ':hourglass:';
    case 'requoted':
      return ':leftwards_arrow_with_hook:';
    case 'unresolved':
      return ':warning:';
    case 'reconciled':
      return ':wrench:';
    case 'settled':
      return view.settlement?.outcome === 'completed'
        ? ':white_check_mark:'
        : view.settlement?.outcome === 'failed'
          ? ':x:'
          : ':warning:';
  }
}

/** One line in the approval message's thread. */
export function threadReply(
  event: ApprovalEvent,
  view: ApprovalView,
  policy: Pick<Policy, 'actors'>,
): SlackMessage {
  const line = eventLine(event, view, slackWording(policy)) ?? event.kind;
  const text = `${eventEmoji(event, view)} ${line}`;
  return { text, blocks: sections(text) };
}

/** What the requester is told, in their thread or a direct message: which request, and what happened. */
export function requesterNotice(
  event: ApprovalEvent,
  view: ApprovalView,
  policy: Pick<Policy, 'actors'>,
  decidedIn: string | undefined,
): SlackMessage {
  const line = eventLine(event, view, slackWording(policy)) ?? event.kind;
  const what = escapeText(approvalLines(view)[0] ?? view.tool);
  const text = `${eventEmoji(event, view)} Your request \`${view.id}\` (${what}): ${line}`;
  return {
    text,
    blocks: [
      ...sections(text),
      ...(decidedIn === undefined ? [] : [context(`The approval and its history are in <#${decidedIn}>.`)]),
    ],
  };
}
