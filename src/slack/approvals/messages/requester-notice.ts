import type { ApprovalEvent, ApprovalView } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import { eventLine } from '../../../present/approval-history.js';
import { approvalLines } from '../../../present/approval-words.js';
import { context, escapeText, type SlackMessage, sections } from '../../render/message.js';
import { eventEmoji } from './thread-reply.js';
import { slackWording } from './wording.js';

/**
 * What the requester is told of a change, in the thread they asked in or a direct message (which
 * changes: `toRequester` in follow.ts): which request, and the change in the words of the thread.
 */
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
