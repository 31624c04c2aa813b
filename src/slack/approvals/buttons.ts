import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ApprovalActionResult } from '../../core/approvals/types.js';
import { whyNotDecide } from '../../present/approval-decide.js';
import {
  type ApprovalAction,
  type ApprovalOutcome,
  approvalOutcome,
} from '../../present/approval-outcome.js';
import { decisionRef } from '../metadata.js';
import type { ActorContext } from '../middleware/actor.js';
import { type PasskeyServices, stepUpMessage } from '../passkeys/index.js';
import type { SlackMessage } from '../render/message.js';
import { replyTo } from '../respond.js';
import { type HomeServices, publishHome } from './home-tab.js';
import { BROKEN, newQuoteLine, notRejectedLine, outcomeLine } from './messages/clicked.js';
import { rejectReasonModal } from './reject-modal.js';

export type ButtonArgs = AllMiddlewareArgs<ActorContext> &
  SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** The outcome of an action on an approval, actor ids kept for Slack to name its own way. */
const outcomeOf = (action: ApprovalAction, result: ApprovalActionResult): ApprovalOutcome =>
  approvalOutcome(action, result, (id) => id);

/**
 * An answer only the clicker sees: ephemeral through the message's response_url, or, for a button
 * on the App Home (which has none), at the top of their home tab, which is published again.
 */
export function answerClicker(
  services: HomeServices,
  { body, context }: Pick<ButtonArgs, 'body' | 'context'>,
): (message: SlackMessage) => Promise<void> {
  if (body.response_url !== undefined && body.response_url !== '') return replyTo(body.response_url);
  return (message) => publishHome(services, body.user.id, context.actor, message.blocks);
}

/**
 * Approve: a vote through the executor, which refuses the requester (as any identity of the same
 * person), anyone without the role, a second vote and anything no longer pending. A click on a quote
 * that has since been replaced counts for nothing: the approver has not seen the new one. On a
 * step-up approval the click is no vote at all: it answers with the approval page's one-time link,
 * where the vote is confirmed with a passkey.
 */
export function approveClicked(services: HomeServices & PasskeyServices) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const answer = answerClicker(services, args);
    const ref = decisionRef.decode(args.action.value);
    if (ref === undefined) return answer(BROKEN);
    const now = await services.executor.getApproval(ref.approvalId);
    if (now?.state === 'pending' && now.attempt !== ref.attempt) {
      return answer(newQuoteLine(ref.approvalId, now.attempt));
    }
    if (now?.stepUp !== undefined) return answer(await stepUpMessage(services, now, args.context.actor));
    const result = await services.executor.approve(ref.approvalId, args.context.actor);
    return answer(outcomeLine(outcomeOf('approve', result), services.executor.policy));
  };
}

/** Reject: asks for the reason in a modal, unless this person could not reject it anyway. */
export function rejectClicked(services: HomeServices) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const answer = answerClicker(services, args);
    const ref = decisionRef.decode(args.action.value);
    const view = ref === undefined ? undefined : await services.executor.getApproval(ref.approvalId);
    if (view === undefined) return answer(BROKEN);
    const why = whyNotDecide(services.executor.policy, args.context.actor, view);
    if (why !== undefined) return answer(notRejectedLine(why));
    const responseUrl = args.body.response_url;
    await services.call('views.open', {
      trigger_id: args.body.trigger_id,
      view: rejectReasonModal(view, responseUrl === undefined || responseUrl === '' ? {} : { responseUrl }),
    });
  };
}

/** Cancel (the requester's own, on the App Home): withdrawn through the executor, which checks it is theirs. */
export function cancelClicked(services: HomeServices) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const answer = answerClicker(services, args);
    const ref = decisionRef.decode(args.action.value);
    if (ref === undefined) return answer(BROKEN);
    const result = await services.executor.cancel(
      ref.approvalId,
      args.context.actor,
      'cancelled by the requester in Slack',
    );
    return answer(outcomeLine(outcomeOf('cancel', result), services.executor.policy));
  };
}
