import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { approvalOutcome } from '../../present/approval-outcome.js';
import { rejectTarget } from '../metadata.js';
import type { ActorContext } from '../middleware/actor.js';
import type { SlackServices } from '../services.js';
import { answerAfterForm } from './form-answer.js';
import type { HomeServices } from './home-tab.js';
import { FORM, outcomeLine } from './messages/clicked.js';
import { REASON_BLOCK, reasonOf } from './reject-modal.js';

type SubmitArgs = AllMiddlewareArgs<ActorContext> & SlackViewMiddlewareArgs<ViewSubmitAction>;

const inline = (ack: SubmitArgs['ack'], message: string): Promise<void> =>
  ack({ response_action: 'errors', errors: { [REASON_BLOCK]: message } });

/**
 * The reject reason, submitted: what needs no database (a form naming no approval, a blank reason)
 * is refused inline; then the form is acknowledged (closed) before anything is read or written, so
 * Slack's 3 seconds hold whatever the database does, and the executor rejects (or refuses). The
 * rejecter is told the outcome where they clicked (`answerAfterForm`), the database being away
 * included.
 */
export function rejectReasonSubmitted(services: HomeServices & Pick<SlackServices, 'log'>) {
  return async ({ body, ack, context }: SubmitArgs): Promise<void> => {
    const target = rejectTarget.decode(body.view.private_metadata);
    if (target === undefined) return inline(ack, FORM.rejectNoApproval);
    const reason = reasonOf(
      body.view.state.values as Record<string, Record<string, { value?: string | null }>>,
    );
    if (reason.trim() === '') return inline(ack, FORM.rejectWhy);
    await ack();
    const where = { ...target, userId: body.user.id, actor: context.actor };
    await answerAfterForm(
      services,
      where,
      async () => {
        const result = await services.executor.reject(target.approvalId, context.actor, reason);
        return outcomeLine(
          approvalOutcome('reject', result, (id) => id),
          services.executor.policy,
        );
      },
      { form: 'reject', approvalId: target.approvalId },
    );
  };
}
