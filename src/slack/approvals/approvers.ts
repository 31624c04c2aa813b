import type { ApprovalView } from '../../core/approvals/types.js';
import type { Policy } from '../../core/policy/schema.js';
import { slackUserOf } from './people.js';

/**
 * Who a reminder mentions: everyone the policy gives the approval's role who can be reached in
 * Slack — a Slack user as `<@U…>`, a user group as the group `<!subteam^S…>` (Slack tells its
 * members; bankops does not list them), a CLI user or MCP key's owner as the Slack user their person
 * is tied to. The requester never approves, so they are left out, whichever identity they used.
 */
export function approverMentions(policy: Pick<Policy, 'actors'>, view: ApprovalView): string[] {
  const requesterUser = view.requester.startsWith('slack:')
    ? view.requester.slice('slack:'.length)
    : slackUserOf(policy, view.requesterPerson);
  const mentions = new Set<string>();
  // A quorum from several groups: the holders of any group's role.
  const roles = view.groups?.map((group) => group.role) ?? [view.approverRole];
  for (const entry of policy.actors) {
    if (!roles.some((role) => entry.roles.includes(role))) continue;
    if (entry.person !== undefined && entry.person === view.requesterPerson) continue;
    const { slackUser, slackGroup } = entry.match;
    if (slackGroup !== undefined) {
      mentions.add(`<!subteam^${slackGroup}>`);
      continue;
    }
    const user = slackUser ?? slackUserOf(policy, entry.person);
    if (user !== undefined && user !== requesterUser) mentions.add(`<@${user}>`);
  }
  return [...mentions];
}
