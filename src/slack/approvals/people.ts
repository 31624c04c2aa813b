import type { ApprovalView } from '../../core/approvals/types.js';
import type { Policy } from '../../core/policy/schema.js';

/**
 * Where people are in Slack: the Slack user behind a person, and where a requester hears how their
 * request ends. How they are named in messages is `messages/wording.ts`.
 */

/** The Slack user the policy ties to a person (`person:` on a `slackUser` entry). */
export function slackUserOf(policy: Pick<Policy, 'actors'>, person: string | undefined): string | undefined {
  if (person === undefined) return undefined;
  if (person.startsWith('slack:')) return person.slice('slack:'.length);
  return policy.actors.find((entry) => entry.person === person && entry.match.slackUser !== undefined)?.match
    .slackUser;
}

/**
 * Where the requester hears how it ends: the Slack thread they asked in, else a direct message to
 * the Slack user of the request (or the one the policy ties their person to); none when unknown.
 */
export function requesterAddress(
  policy: Pick<Policy, 'actors'>,
  view: ApprovalView,
): { channel: string; thread: string } | { user: string } | undefined {
  const replyTo = view.origin.replyTo ?? {};
  if (replyTo.slackChannel !== undefined && replyTo.slackThread !== undefined) {
    return { channel: replyTo.slackChannel, thread: replyTo.slackThread };
  }
  const user =
    replyTo.slackUser ??
    (view.requester.startsWith('slack:') ? view.requester.slice('slack:'.length) : undefined) ??
    slackUserOf(policy, view.requesterPerson);
  return user === undefined ? undefined : { user };
}
