import type { ApprovalView } from '../../core/approvals/types.js';
import type { Policy } from '../../core/policy/schema.js';
import type { Wording } from '../../present/approval-words.js';
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

/** `cli:bob` → `bob (CLI)`, `mcp:claude-ops` → `claude-ops (MCP)`. */
function identityWords(actorId: string): string {
  const at = actorId.indexOf(':');
  const kind = at === -1 ? '' : actorId.slice(0, at);
  const name = escapeText(at === -1 ? actorId : actorId.slice(at + 1));
  switch (kind) {
    case 'cli':
      return `${name} (CLI)`;
    case 'mcp':
      return name === 'stdio' ? 'the local assistant (MCP)' : `${name} (MCP key)`;
    case 'system':
      return 'bankops';
    default:
      return escapeText(actorId);
  }
}

/** Who acted, for Slack: `<@U…>`, or `bob (CLI)` with `<@U…>` when the policy knows their Slack user. */
export function whoInSlack(policy: Pick<Policy, 'actors'>, actorId: string, person?: string): string {
  if (actorId.startsWith('slack:')) return `<@${actorId.slice('slack:'.length)}>`;
  const user = slackUserOf(policy, person);
  return user === undefined ? identityWords(actorId) : `<@${user}> as ${identityWords(actorId)}`;
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

/** Who asked and from where: `<@U…> in <#C…>`, `olivia (CLI)`, `claude-ops (MCP key), <@U…>`. */
export function askedBy(policy: Pick<Policy, 'actors'>, view: ApprovalView): string {
  const replyTo = view.origin.replyTo ?? {};
  const channel = replyTo.slackChannel === undefined ? '' : ` in <#${replyTo.slackChannel}>`;
  switch (view.origin.frontEnd) {
    case 'slack':
      return `${whoInSlack(policy, view.requester, view.requesterPerson)} in Slack${channel}`;
    case 'cli':
      return `${whoInSlack(policy, view.requester, view.requesterPerson)} with the CLI`;
    case 'mcp':
      return `${whoInSlack(policy, view.requester, view.requesterPerson)} through an assistant over MCP`;
  }
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
