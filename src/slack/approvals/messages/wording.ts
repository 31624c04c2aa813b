import type { ApprovalView } from '../../../core/approvals/types.js';
import type { Policy } from '../../../core/policy/schema.js';
import type { Wording } from '../../../present/approval-words.js';
import { actorParts } from '../../../present/people.js';
import { escapeText } from '../../render/message.js';
import { slackUserOf } from '../people.js';

/**
 * People and times as every Slack message about approvals writes them: a Slack user as a mention
 * `<@U…>`, anyone else by the identity they used and, when the policy ties their person to a Slack
 * user, that user's mention too; a time in each reader's own time zone.
 */

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

/**
 * A time Slack shows in each reader's own time zone (`6:32:18 PM today`, `9:00:00 AM Nov 30, 2026`:
 * it follows "at" and "until"), with the ISO time as the fallback.
 */
export function slackTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return escapeText(iso);
  return `<!date^${Math.floor(ms / 1000)}^{time_secs} {date_short_pretty}|${iso}>`;
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
