import type { ApprovalView } from '../../core/approvals/types.js';
import type { Policy } from '../../core/policy/schema.js';
import type { Wording } from '../../present/approval-words.js';
import { actorParts } from '../../present/people.js';
import { escapeText } from '../render/message.js';

/**
 * People as Slack shows them: a Slack user as a mention `<@U…>`, anyone else by the identity they
 * used and, when the policy ties their person to a Slack user, that user's mention too.
 */

/** The Slack user the policy ties to a person (`person:` on a `slackUser` entry). */
export function slackUserOf(policy: Pick<Policy, 'actors'>, person: string | undefined): string | undefined {
  if (person === undefined) return undefined;
  if (person.startsWith('slack:')) return person.slice('slack:'.length);
  return policy.actors.find((entry) => entry.person === person && entry.match.slackUser !== undefined)?.match
    .slackUser;
}

/** `cli:bob` → `bob` and `CLI`, as every front end says it (src/present), escaped for Slack. */
function identityParts(actorId: string): { name: string; via?: string } {
  const { name, via } = actorParts(actorId);
  return via === undefined ? { name: escapeText(name) } : { name: escapeText(name), via };
}

/**
 * Who acted, for Slack: `<@U…>`; `bob (CLI)`; `<@U…> (as bob, CLI)` when the policy ties that
 * identity's person to a Slack user.
 */
export function whoInSlack(policy: Pick<Policy, 'actors'>, actorId: string, person?: string): string {
  if (actorId.startsWith('slack:')) return `<@${actorId.slice('slack:'.length)}>`;
  const { name, via } = identityParts(actorId);
  const user = via === undefined ? undefined : slackUserOf(policy, person);
  if (user !== undefined) return `<@${user}> (as ${name}, ${via})`;
  return via === undefined ? name : `${name} (${via})`;
}

/** A time Slack shows in each reader's own time zone, with the ISO time as the fallback. */
export function slackTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return escapeText(iso);
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time_secs}|${iso}>`;
}

/** The words of src/present, written for Slack: mentions, local times, escaped text. */
export function slackWording(policy: Pick<Policy, 'actors'>): Wording {
  return {
    who: (actorId, person) => whoInSlack(policy, actorId, person),
    time: slackTime,
    text: escapeText,
  };
}

/** Who asked and from where: `<@U…> in <#C…>`, `olivia (CLI)`, `<@U…> (as claude-ops, assistant over MCP)`. */
export function askedBy(policy: Pick<Policy, 'actors'>, view: ApprovalView): string {
  const who = whoInSlack(policy, view.requester, view.requesterPerson);
  if (view.origin.frontEnd !== 'slack') return who;
  const channel = view.origin.replyTo?.slackChannel;
  return channel === undefined ? `${who} in Slack` : `${who} in <#${channel}>`;
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
