import { isDatabaseUnreachable } from '../../core/errors.js';
import { optional } from '../../core/optional.js';
import type { ExecuteResult } from '../../core/results.js';
import { slackOrigin } from '../answers/run.js';
import { decisionRef } from '../metadata.js';
import { line, type SlackMessage } from '../render/message.js';
import { databaseDownMessage, outcomeMessage } from '../render/outcome.js';
import { answerClicker, type ButtonArgs } from './buttons.js';
import type { ApprovalServices } from './index.js';
import { BROKEN } from './messages/clicked.js';
import { requestedMessage } from './messages/requested.js';

/** The answer to whoever asked again: the new approval as a request's answer, else why not. */
function askedAgainMessage(result: ExecuteResult, askedIn: string, services: ApprovalServices): SlackMessage {
  switch (result.status) {
    case 'pending_approval':
      return requestedMessage(result.approval, askedIn, services.config);
    case 'ok':
      // The policy let it run without approvers (changed since): it ran, as a request would.
      return line(`:white_check_mark: \`${result.tool}\` ran (request id ${result.requestId}).`);
    default:
      return outcomeMessage(result, false);
  }
}

/**
 * Ask again, on an approval a person marked not sent: the same request once more, as the clicker's
 * own (the policy judges them as any requester), a fresh approval with a fresh quote when it runs.
 * Acknowledged before anything is read; nothing is re-sent (the executor refuses an approval whose
 * money may have left). The clicker is told the new approval, or why not, where they clicked.
 */
export function askAgainClicked(services: ApprovalServices) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const answer = answerClicker(services, args);
    const ref = decisionRef.decode(args.action.value);
    if (ref === undefined) return answer(BROKEN);
    const { body } = args;
    const channelId = body.channel?.id ?? '';
    const origin = slackOrigin({
      actor: args.context.actor,
      userId: body.user.id,
      ...optional('userName', body.user.name),
      channelId,
      reply: answer,
    });
    let result: ExecuteResult;
    try {
      result = await services.executor.askAgain(ref.approvalId, args.context.actor, origin);
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error;
      return answer(databaseDownMessage());
    }
    return answer(askedAgainMessage(result, channelId, services));
  };
}
