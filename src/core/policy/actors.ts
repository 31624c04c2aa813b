import type { ActorEntry, Policy } from './schema.js';
import type { Actor } from './types.js';

/** Only the front-end specific field is trusted; `actor.id` is a label for messages. */
function matches(entry: ActorEntry, actor: Actor): boolean {
  const { slackUser, slackGroup, mcpKey, mcpStdio, cli } = entry.match;
  switch (actor.frontEnd) {
    case 'slack':
      if (slackUser !== undefined) return actor.slackUserId === slackUser;
      if (slackGroup !== undefined) return actor.slackGroupIds?.includes(slackGroup) ?? false;
      return false;
    case 'mcp':
      if (mcpStdio === true) return actor.mcpStdio === true;
      return mcpKey !== undefined && actor.mcpStdio !== true && actor.mcpKeyName === mcpKey;
    case 'cli':
      if (cli === undefined || actor.cliUser === undefined || actor.cliUser === '') return false;
      return cli === '*' || cli === actor.cliUser;
  }
}

/** True when at least one entry of `actors` matches, even one that grants no role. */
export function isKnownActor(policy: Pick<Policy, 'actors'>, actor: Actor): boolean {
  return policy.actors.some((entry) => matches(entry, actor));
}

/** The union of the roles of every matching entry, in order of first appearance; [] for an unknown actor. */
export function rolesOf(policy: Pick<Policy, 'actors'>, actor: Actor): string[] {
  const roles = new Set<string>();
  for (const entry of policy.actors) {
    if (matches(entry, actor)) for (const role of entry.roles) roles.add(role);
  }
  return [...roles];
}

/** Whether the actor holds the role an approval rule asks of its approvers. */
export function canApprove(policy: Pick<Policy, 'actors'>, actor: Actor, approverRole: string): boolean {
  return rolesOf(policy, actor).includes(approverRole);
}

/**
 * The full check for one approval vote: the role, and never the requester (DESIGN decision 4).
 * Identity is the actor id, so one person with a Slack and a CLI identity counts as two; the
 * approvals store is where "each approver counts once" is enforced.
 */
export function checkApprover(
  policy: Pick<Policy, 'actors'>,
  vote: { approver: Actor; requester: Actor; approverRole: string },
): { ok: true } | { ok: false; reason: string } {
  if (vote.approver.id === vote.requester.id) {
    return { ok: false, reason: `${vote.approver.id} requested this call and cannot approve it` };
  }
  if (!canApprove(policy, vote.approver, vote.approverRole)) {
    return { ok: false, reason: `${vote.approver.id} does not hold the role ${vote.approverRole}` };
  }
  return { ok: true };
}
