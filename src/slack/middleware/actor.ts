import type { AllMiddlewareArgs, AnyMiddlewareArgs } from '@slack/bolt';
import type { Actor } from '../../core/policy/types.js';
import type { SlackIdentities } from '../identity.js';
import { line, type SlackMessage } from '../render/message.js';
import { inlineErrors } from '../render/modal.js';
import { replyTo } from '../respond.js';
import type { SlackCall } from '../store/outbox.js';

/** What every listener finds in Bolt's `context`: the person who clicked, typed or opened, to the policy. */
export type ActorContext = { actor: Actor };

/** An unknown user learns that, and what to give the admin. */
export const noAccessMessage = (userId: string): SlackMessage =>
  line(
    `:wave: You have no access to bankops yet. Ask a bankops admin to add your Slack user id \`${userId}\` to the policy (\`actors: - match: {slackUser: ${userId}}\` with roles).`,
  );

type Args = AnyMiddlewareArgs & AllMiddlewareArgs<Partial<ActorContext>>;

/**
 * Tells a user the policy does not know that they have no access, once, wherever they came from: a
 * command or a button answers through its response_url, a form inline, the App Home (and its
 * buttons, which have no response_url) in the home tab itself.
 */
async function answerStranger(args: Args, userId: string, call: SlackCall): Promise<void> {
  const message = noAccessMessage(userId);
  const publishHome = () =>
    call('views.publish', { user_id: userId, view: { type: 'home', blocks: message.blocks } });
  if ('command' in args) {
    await args.ack();
    return replyTo(args.command.response_url)(message);
  }
  if ('action' in args && args.body.type === 'block_actions') {
    await args.ack();
    const url = args.body.response_url;
    return url === undefined || url === '' ? void (await publishHome()) : replyTo(url)(message);
  }
  if ('view' in args && args.body.type === 'view_submission') {
    const blockIds = Object.keys(args.view.state.values);
    return args.ack({
      response_action: 'errors',
      errors: inlineErrors(
        [{ path: '', message: `You have no access to bankops yet (user id ${userId}).` }],
        blockIds,
      ),
    });
  }
  if ('ack' in args && typeof args.ack === 'function') await args.ack();
  if ('event' in args && args.event.type === 'app_home_opened') await publishHome();
}

/**
 * Bolt global middleware: resolves `context.actor` (the Slack user with the user groups the policy
 * names) before any listener runs, so no listener looks the person up or forgets to. A user the policy
 * does not know is answered here and goes no further. Requests without a user (none bankops listens
 * to) go no further either.
 */
export function resolveActor(identities: SlackIdentities, call: SlackCall) {
  return async (args: Args): Promise<void> => {
    const userId = args.context.userId;
    if (userId === undefined) return;
    const actor = await identities.actorFor(userId);
    if (!identities.isKnown(actor)) return answerStranger(args, userId, call);
    args.context.actor = actor;
    await args.next();
  };
}
