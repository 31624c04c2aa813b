import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { whyNotReconcile } from '../../present/approval-decide.js';
import { approvalOutcome } from '../../present/approval-outcome.js';
import { decisionRef, type ReconcileTarget, reconcileTarget } from '../metadata.js';
import type { ActorContext } from '../middleware/actor.js';
import { line, type SlackMessage } from '../render/message.js';
import type { SlackServices } from '../services.js';
import { answerClicker, type ButtonArgs } from './buttons.js';
import { answerAfterForm } from './form-answer.js';
import type { HomeServices } from './home-tab.js';
import { BROKEN, FORM, notSettledLine, outcomeLine } from './messages/clicked.js';
import { reconcileReasonModal } from './reconcile-modal.js';
import { REASON_BLOCK, reasonOf } from './reject-modal.js';

type SubmitArgs = AllMiddlewareArgs<ActorContext> & SlackViewMiddlewareArgs<ViewSubmitAction>;

/**
 * Sent, Not sent or Send again on an unresolved approval: the modal asking what the person found,
 * unless they could not settle it anyway (the requester never; the approver role).
 */
export function reconcileClicked(services: HomeServices, outcome: ReconcileTarget['outcome']) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const answer = answerClicker(services, args);
    const ref = decisionRef.decode(args.action.value);
    const view = ref === undefined ? undefined : await services.executor.getApproval(ref.approvalId);
    if (ref === undefined || view === undefined) return answer(BROKEN);
    // Buttons of an earlier attempt: what the clicker looked up is not what would be settled.
    if (view.attempt !== ref.attempt) return answer(notSettledLine(view, undefined));
    const why = whyNotReconcile(services.executor.policy, args.context.actor, view);
    if (why !== undefined) return answer(notSettledLine(view, why));
    const responseUrl = args.body.response_url;
    await services.call('views.open', {
      trigger_id: args.body.trigger_id,
      view: reconcileReasonModal(
        view,
        outcome,
        responseUrl === undefined || responseUrl === '' ? {} : { responseUrl },
      ),
    });
  };
}

const inline = (ack: SubmitArgs['ack'], message: string): Promise<void> =>
  ack({ response_action: 'errors', errors: { [REASON_BLOCK]: message } });

/**
 * The reason, submitted: what needs no database (a form naming no approval, a blank reason) is
 * refused inline; then the form is acknowledged (closed) before anything is read or written (Send
 * again may wait on the service, and the database on its network, longer than Slack waits for an
 * answer). The approval is read again: only the attempt this form showed is settled, by someone who
 * may, as `bankops approvals reconcile` does, audited. The person is told the outcome, or why it
 * settled nothing, where they clicked (`answerAfterForm`, the database being away included); the
 * message changes through the feed.
 */
export function reconcileReasonSubmitted(services: HomeServices & Pick<SlackServices, 'log'>) {
  return async ({ body, ack, context }: SubmitArgs): Promise<void> => {
    const target = reconcileTarget.decode(body.view.private_metadata);
    if (target === undefined) return inline(ack, FORM.reconcileNoApproval);
    const reason = reasonOf(
      body.view.state.values as Record<string, Record<string, { value?: string | null }>>,
    ).trim();
    if (reason === '') return inline(ack, FORM.reconcileWhat);
    await ack();
    const { actor } = context;
    const settle = async (): Promise<SlackMessage> => {
      const view = await services.executor.getApproval(target.approvalId);
      if (view === undefined)
        return line(`:no_entry: ${FORM.notSettled(`approval ${target.approvalId} is not known`)}`);
      if (view.requestId !== target.requestId) return notSettledLine(view, undefined);
      const why = whyNotReconcile(services.executor.policy, actor, view);
      if (why !== undefined) return notSettledLine(view, why);
      const result = await services.executor.reconcile(target.approvalId, actor, {
        outcome: target.outcome,
        reason,
        // Settled only if it is still the attempt this form showed (checked again in the transaction).
        requestId: target.requestId,
      });
      return outcomeLine(
        approvalOutcome('reconcile', result, (id) => id),
        services.executor.policy,
      );
    };
    await answerAfterForm(services, { ...target, userId: body.user.id, actor }, settle, {
      form: 'reconcile',
      approvalId: target.approvalId,
    });
  };
}
