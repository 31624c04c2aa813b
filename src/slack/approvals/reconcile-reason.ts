import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { ApprovalActionResult } from '../../core/approvals/types.js';
import { isDatabaseUnreachable } from '../../core/errors.js';
import { whyNotReconcile } from '../../present/approval-decide.js';
import { approvalOutcome } from '../../present/approval-outcome.js';
import { decisionRef, type ReconcileTarget, reconcileTarget } from '../metadata.js';
import type { ActorContext } from '../middleware/actor.js';
import { homeAnswer } from '../middleware/answer.js';
import { databaseDownMessage } from '../render/outcome.js';
import { replyTo } from '../respond.js';
import type { SlackServices } from '../services.js';
import { answerClicker, type ButtonArgs } from './buttons.js';
import { type HomeServices, publishHome } from './home-tab.js';
import { BROKEN, changedSince, FORM, notSettledLine, outcomeLine } from './messages/clicked.js';
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
 * The reason, submitted: blank is refused inline, and so is someone who may not settle it; then the
 * modal closes at once (Send again may wait on the service longer than Slack waits for an answer)
 * and the executor settles it as `bankops approvals reconcile` does, audited, judging again who
 * may. The person is told where they clicked; the message changes through the feed. The database
 * going away once the form closed is told there too: the global middleware can no longer answer a
 * form already acknowledged.
 */
export function reconcileReasonSubmitted(services: HomeServices & Pick<SlackServices, 'log'>) {
  return async ({ body, ack, context }: SubmitArgs): Promise<void> => {
    const target = reconcileTarget.decode(body.view.private_metadata);
    if (target === undefined) return inline(ack, FORM.reconcileNoApproval);
    const reason = reasonOf(
      body.view.state.values as Record<string, Record<string, { value?: string | null }>>,
    ).trim();
    if (reason === '') {
      return inline(ack, FORM.reconcileWhat);
    }
    const view = await services.executor.getApproval(target.approvalId);
    const why =
      view === undefined
        ? `approval ${target.approvalId} is not known`
        : view.requestId !== target.requestId
          ? changedSince(view)
          : whyNotReconcile(services.executor.policy, context.actor, view);
    if (why !== undefined) return inline(ack, FORM.notSettled(why));
    await ack();
    let result: ApprovalActionResult;
    try {
      result = await services.executor.reconcile(target.approvalId, context.actor, {
        outcome: target.outcome,
        reason,
        // Settled only if it is still the attempt this form showed (checked again in the transaction).
        requestId: target.requestId,
      });
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error;
      services.log.warn('slack: the database cannot be reached; the reconcile form was answered so', {
        approvalId: target.approvalId,
        error,
      });
      const down = databaseDownMessage();
      if (target.responseUrl !== undefined) await replyTo(target.responseUrl)(down);
      // The App Home's list of approvals needs the database too: the answer is all it shows.
      else await homeAnswer(services.call, body.user.id, down);
      return;
    }
    const answer = outcomeLine(
      approvalOutcome('reconcile', result, (id) => id),
      services.executor.policy,
    );
    if (target.responseUrl !== undefined) await replyTo(target.responseUrl)(answer);
    else await publishHome(services, body.user.id, context.actor, answer.blocks);
  };
}
