import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { Actor } from '../../core/policy/types.js';
import { whyNotDecide } from '../../present/approval-decide.js';
import { type ApprovalOutcome, approvalOutcome } from '../../present/approval-outcome.js';
import { noAccessMessage } from '../commands/bank.js';
import { escapeText, line, type SlackMessage } from '../render/message.js';
import { replyTo } from '../respond.js';
import type { SlackServices } from '../services.js';
import { publishHome } from './home-tab.js';
import { parseRef } from './ids.js';
import { rejectReasonModal } from './reject-modal.js';

type Args = { body: BlockAction; action: ButtonAction; ack: () => Promise<void> };

const EMOJI: Record<ApprovalOutcome['class'], string> = {
  ok: ':white_check_mark:',
  failed: ':x:',
  invalid: ':warning:',
  denied: ':no_entry:',
  unfinished: ':hourglass_flowing_sand:',
};

/** The one-line outcome of src/present, for the person who clicked. */
export const outcomeLine = (outcome: ApprovalOutcome): SlackMessage =>
  line(`${EMOJI[outcome.class]} ${escapeText(outcome.line)}`);

/**
 * An answer only the clicker sees: ephemeral through the message's response_url, or, for a button
 * on the App Home (which has none), at the top of their home tab, which is published again.
 */
export function answerClicker(
  services: SlackServices,
  body: BlockAction,
): (message: SlackMessage) => Promise<void> {
  if (body.response_url !== undefined && body.response_url !== '') {
    const reply = replyTo(body.response_url);
    return (message) => reply(message);
  }
  return (message) => publishHome(services, body.user.id, message.blocks);
}

/** The clicker, if the policy knows them; otherwise they are told so and `undefined` is returned. */
async function knownClicker(
  services: SlackServices,
  body: BlockAction,
  answer: (message: SlackMessage) => Promise<void>,
): Promise<Actor | undefined> {
  const actor = await services.identities.actorFor(body.user.id);
  if (services.identities.isKnown(actor)) return actor;
  await answer(noAccessMessage(body.user.id));
  return undefined;
}

const BROKEN = line(':warning: This button names no approval bankops knows; `/bank approvals` lists them.');

/**
 * Approve: a vote through the executor, which refuses the requester (as any identity of the same
 * person), anyone without the role, a second vote and anything no longer pending. A click on a quote
 * that has since been replaced counts for nothing: the approver has not seen the new one.
 */
export function approveClicked(services: SlackServices) {
  return async ({ body, action, ack }: Args): Promise<void> => {
    await ack();
    const answer = answerClicker(services, body);
    const ref = parseRef(action.value);
    if (ref === undefined) return answer(BROKEN);
    const actor = await knownClicker(services, body, answer);
    if (actor === undefined) return;
    const now = services.executor.getApproval(ref.i);
    if (now?.state === 'pending' && now.attempt !== ref.a) {
      return answer(
        line(
          `:leftwards_arrow_with_hook: Not recorded: \`${ref.i}\` has a new quote since you saw it (attempt ${now.attempt}). Read it in the message and decide again.`,
        ),
      );
    }
    return answer(outcomeLine(approvalOutcome('approve', await services.executor.approve(ref.i, actor))));
  };
}

/** Reject: asks for the reason in a modal, unless this person could not reject it anyway. */
export function rejectClicked(services: SlackServices) {
  return async ({ body, action, ack }: Args): Promise<void> => {
    await ack();
    const answer = answerClicker(services, body);
    const ref = parseRef(action.value);
    const view = ref === undefined ? undefined : services.executor.getApproval(ref.i);
    if (view === undefined) return answer(BROKEN);
    const actor = await knownClicker(services, body, answer);
    if (actor === undefined) return;
    const why = whyNotDecide(services.executor.policy, actor, view);
    if (why !== undefined) return answer(line(`:no_entry: Not rejected: ${why}.`));
    await services.call('views.open', {
      trigger_id: body.trigger_id,
      view: rejectReasonModal(view, { responseUrl: body.response_url }),
    });
  };
}

/** Cancel (the requester's own, on the App Home): withdrawn through the executor, which checks it is theirs. */
export function cancelClicked(services: SlackServices) {
  return async ({ body, action, ack }: Args): Promise<void> => {
    await ack();
    const answer = answerClicker(services, body);
    const ref = parseRef(action.value);
    if (ref === undefined) return answer(BROKEN);
    const actor = await knownClicker(services, body, answer);
    if (actor === undefined) return;
    const result = services.executor.cancel(ref.i, actor, 'cancelled by the requester in Slack');
    return answer(outcomeLine(approvalOutcome('cancel', result)));
  };
}
