import type { AckFn, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import { approvalOutcome } from '../../present/approval-outcome.js';
import { replyTo } from '../respond.js';
import type { SlackServices } from '../services.js';
import { outcomeLine } from './buttons.js';
import { publishHome } from './home-tab.js';
import { parseRejectMetadata, REASON_BLOCK, reasonOf } from './reject-modal.js';

type Args = { body: ViewSubmitAction; ack: AckFn<ViewResponseAction> };

const inline = (ack: Args['ack'], message: string): Promise<void> =>
  ack({ response_action: 'errors', errors: { [REASON_BLOCK]: message } });

/**
 * The reject reason, submitted: an empty or blank reason is refused inline before anything else;
 * then the executor rejects (or refuses, also shown inline, so the person sees why in place); the
 * modal closes and the rejecter is told where they clicked.
 */
export function rejectReasonSubmitted(services: SlackServices) {
  return async ({ body, ack }: Args): Promise<void> => {
    const meta = parseRejectMetadata(body.view.private_metadata);
    if (meta === undefined)
      return inline(ack, 'This form names no approval; close it and click Reject again.');
    const reason = reasonOf(
      body.view.state.values as Record<string, Record<string, { value?: string | null }>>,
    );
    if (reason.trim() === '') {
      return inline(
        ack,
        'Say why: the requester reads it and the audit log keeps it. Spaces alone are not a reason.',
      );
    }
    const actor = await services.identities.actorFor(body.user.id);
    if (!services.identities.isKnown(actor)) {
      return inline(ack, `You have no access to bankops yet (user id ${body.user.id}).`);
    }
    const result = services.executor.reject(meta.i, actor, reason);
    const outcome = approvalOutcome('reject', result);
    if (result.status !== 'ok') return inline(ack, outcome.line);
    await ack();
    const answer = outcomeLine(outcome);
    if (meta.u !== undefined) await replyTo(meta.u)(answer);
    else await publishHome(services, body.user.id, answer.blocks);
  };
}
