import type { AllMiddlewareArgs, AnyMiddlewareArgs } from '@slack/bolt';
import type { Actor } from '../../core/policy/types.js';
import type { SlackIdentities } from '../identity.js';
import { line, type SlackMessage } from '../render/message.js';
import type { SlackCall } from '../store/outbox.js';
import { type Answer, answerWherever } from './answer.js';

/** What every listener finds in Bolt's `context`: the person who clicked, typed or opened, to the policy. */
export type ActorContext = { actor: Actor };

/** An unknown user learns that, and what to give the admin. */
export const noAccessMessage = (userId: string): SlackMessage =>
  line(
    `:wave: You have no access to bankops yet. Ask a bankops admin to add your Slack user id \`${userId}\` to the policy (\`actors: - match: {slackUser: ${userId}}\` with roles).`,
  );

type Args = AnyMiddlewareArgs & AllMiddlewareArgs<Partial<ActorContext>>;

/** A stranger's answer, wherever they came from (`answerWherever`). */
const strangerAnswer = (userId: string): Answer => ({
  message: noAccessMessage(userId),
  formError: `You have no access to bankops yet (user id ${userId}).`,
});

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
    if (!identities.isKnown(actor)) return answerWherever(args, strangerAnswer(userId), call);
    args.context.actor = actor;
    await args.next();
  };
}
