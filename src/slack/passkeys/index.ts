import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { ApprovalView } from '../../core/approvals/types.js';
import { PasskeyError } from '../../core/passkeys/index.js';
import type { Actor } from '../../core/policy/types.js';
import { whatWillHappen } from '../../present/approval-words.js';
import type { ActorContext } from '../middleware/actor.js';
import {
  type Block,
  context,
  escapeText,
  line,
  plain,
  type SlackMessage,
  sections,
} from '../render/message.js';
import type { SlackServices } from '../services.js';

/**
 * Passkeys in Slack: `/bank passkey` answers its person (ephemeral) with a one-time enrolment link,
 * and Approve on a step-up approval answers with a button to the approval page, where the vote is
 * confirmed with a passkey. Neither click counts as a vote by itself.
 */

/** The action id of the link buttons: Slack sends a click on a URL button too, which is only acknowledged. */
const OPEN_LINK_ACTION = 'bankops_passkey_open';

function linkButton(text: string, url: string): Block {
  return {
    type: 'actions',
    elements: [{ type: 'button', text: plain(text, 75), action_id: OPEN_LINK_ACTION, url, style: 'primary' }],
  };
}

/** Why no link can be made, in words for the person who asked. */
function refusal(error: unknown): SlackMessage {
  if (error instanceof PasskeyError) return line(`:no_entry: ${escapeText(error.message)}`);
  throw error;
}

/** What the passkey answers use of the services. */
export type PasskeyServices = Pick<SlackServices, 'passkeys'>;

/** `/bank passkey`: a link (15 minutes, once) for the person behind this Slack user. */
export async function enrolLinkMessage(services: PasskeyServices, actor: Actor): Promise<SlackMessage> {
  const passkeys = services.passkeys;
  if (passkeys === undefined) return line(':no_entry: Passkeys are not available on this server.');
  try {
    const person = passkeys.personOf(actor);
    const link = await passkeys.enrolLink(person, actor);
    const count = (await passkeys.list(person)).length;
    const text = `:key: Register a passkey for *${escapeText(person)}*: approvals of the largest payouts count only once confirmed with one.`;
    return {
      text: 'Register a passkey (link valid 15 minutes, once)',
      blocks: [
        ...sections(text),
        linkButton('Register a passkey', link.url),
        context(
          `Only you see this link; it works once, for 15 minutes. You have ${count} passkey${count === 1 ? '' : 's'} so far.`,
        ),
      ],
    };
  } catch (error) {
    return refusal(error);
  }
}

/** Approve on a step-up approval: the page where the vote is confirmed with a passkey. */
export async function stepUpMessage(
  services: PasskeyServices,
  view: ApprovalView,
  actor: Actor,
): Promise<SlackMessage> {
  const passkeys = services.passkeys;
  if (passkeys === undefined) return line(':no_entry: Passkeys are not available on this server.');
  try {
    const link = await passkeys.approvalLink(view.id, actor);
    const what = escapeText(whatWillHappen(view)[0] ?? view.tool);
    return {
      text: `Confirm your approval of ${view.id} with a passkey`,
      blocks: [
        ...sections(
          `:key: *Not counted yet.* \`${view.id}\` (${what}) needs your approval confirmed with a passkey: it signs exactly what will run.`,
        ),
        linkButton('Approve with passkey', link.url),
        context('Only you see this link; it works once, for 5 minutes. The page shows the payment in full.'),
      ],
    };
  } catch (error) {
    return refusal(error);
  }
}

/** The link buttons' clicks: only acknowledged (the browser opens the URL). */
export function register(app: App<ActorContext>): void {
  app.action<BlockAction<ButtonAction>>(OPEN_LINK_ACTION, async ({ ack }) => {
    await ack();
  });
}
