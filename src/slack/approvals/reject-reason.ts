import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { approvalOutcome } from '../../present/approval-outcome.js';
import { nameActors } from '../../present/people.js';
import { rejectTarget } from '../metadata.js';
import type { ActorContext } from '../middleware/actor.js';
import { replyTo } from '../respond.js';
import { type HomeServices, publishHome } from './home-tab.js';
import { FORM, outcomeLine } from './messages/clicked.js';
import { REASON_BLOCK, reasonOf } from './reject-modal.js';

type SubmitArgs = AllMiddlewareArgs<ActorContext> & SlackViewMiddlewareArgs<ViewSubmitAction>;

const inline = (ack: SubmitArgs['ack'], message: string): Promise<void> =>
  ack({ response_action: 'errors', errors: { [REASON_BLOCK]: message } });

/**
 * The reject reason, submitted: an empty or blank reason is refused inline before anything else;
 * then the executor rejects (or refuses, also shown inline, so the person sees why in place); the
 * modal closes and the rejecter is told where they clicked.
 */
export function rejectReasonSubmitted(services: HomeServices) {
  return async ({ body, ack, context }: SubmitArgs): Promise<void> => {
    const target = rejectTarget.decode(body.view.private_metadata);
    if (target === undefined) return inline(ack, FORM.rejectNoApproval);
    const reason = reasonOf(
      body.view.state.values as Record<string, Record<string, { value?: string | null }>>,
    );
    if (reason.trim() === '') {
      return inline(ack, FORM.rejectWhy);
    }
    const result = await services.executor.reject(target.approvalId, context.actor, reason);
    const outcome = approvalOutcome('reject', result, (id) => id);
    if (result.status !== 'ok') return inline(ack, nameActors(outcome.line));
    await ack();
    const answer = outcomeLine(outcome, services.executor.policy);
    if (target.responseUrl !== undefined) await replyTo(target.responseUrl)(answer);
    else await publishHome(services, body.user.id, context.actor, answer.blocks);
  };
}
