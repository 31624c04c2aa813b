import type { ApprovalEvent, ApprovalView } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import { eventLine } from '../../../present/approval-history.js';
import { type SlackMessage, sections } from '../../render/message.js';
import { slackWording } from './wording.js';

/**
 * A reply in the approval message's thread, one per change worth a line (the history, with who
 * and when; which changes: `inThread` in follow.ts). The sentence is `eventLine` of
 * src/present/approval-history.ts, which the requester's notice says too.
 */

/** The emoji of a change, at the head of its line. */
export function eventEmoji(event: ApprovalEvent, view: ApprovalView): string {
  switch (event.kind) {
    case 'opened':
      return ':inbox_tray:';
    case 'voted':
    case 'succeeded':
      return ':white_check_mark:';
    case 'executing':
      return ':gear:';
    case 'taken_over':
      return ':twisted_rightwards_arrows:';
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
    case 'break_glass':
      return ':rotating_light:';
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
