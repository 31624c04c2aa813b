import { idpPerson, oidcMatches } from './oidc.js';
import type { ActorEntry, Policy } from './schema.js';
import type { Actor } from './types.js';

/** Only the front-end specific field is trusted; `actor.id` is a label for messages. */
function matches(entry: ActorEntry, actor: Actor): boolean {
  const { slackUser, slackGroup, mcpKey, mcpStdio, cli, system, oidc } = entry.match;
  // The IdP's person, whichever front end they came through.
  if (oidc !== undefined) return oidcMatches(oidc, actor);
  // A signed-in person is who the IdP says, never a local name or a key.
  if (actor.oidc !== undefined) return false;
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
    case 'system':
      return system !== undefined && system === actor.system;
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

/**
 * The person behind an identity: the `person` of the first matching entry that names one, else the
 * identity itself (its actor id). Identities of one person share separation of duties.
 */
export function personOf(policy: Pick<Policy, 'actors'>, actor: Actor): string {
  for (const entry of policy.actors) {
    if (entry.person !== undefined && matches(entry, actor)) return entry.person;
  }
  return idpPerson(actor) ?? actor.id;
}

/** Whether the actor holds the role an approval rule asks of its approvers (one of them, for groups). */
export function canApprove(
  policy: Pick<Policy, 'actors'>,
  actor: Actor,
  approverRole: string | readonly string[],
): boolean {
  const held = rolesOf(policy, actor);
  return typeof approverRole === 'string'
    ? held.includes(approverRole)
    : approverRole.some((role) => held.includes(role));
}

/** `treasury`, `treasury or controller`: the role(s) a vote needs, for a refusal. */
export const roleWords = (roles: string | readonly string[]): string =>
  typeof roles === 'string' ? roles : roles.join(' or ');

/**
 * Everyone the requester of an approval is: the person recorded when it opened, their identity and
 * its person under the policy in force now, and — for a CLI request made under another name against
 * a real service — the OS account that ran it and its person (a name typed with `--as` is not a
 * login: the account behind it asked).
 */
/**
 * Whether `actor` (the person `person`) asked for this approval, under any of the requester's
 * identities: the requester never approves, reconciles, breaks the glass on or reviews their own.
 */
export function isRequesterOf(
  policy: Pick<Policy, 'actors'>,
  row: { requesterId: string; requester: Actor; requesterPerson: string },
  actor: Actor,
  person: string,
): boolean {
  return (
    actor.id === row.requesterId || requesterPeople(policy, row.requester, row.requesterPerson).has(person)
  );
}

export function requesterPeople(
  policy: Pick<Policy, 'actors'>,
  requester: Actor,
  recordedPerson: string,
): Set<string> {
  const people = new Set([recordedPerson, personOf(policy, requester), requester.id]);
  if (requester.osUser !== undefined) {
    const account: Actor = { id: `cli:${requester.osUser}`, frontEnd: 'cli', cliUser: requester.osUser };
    people.add(account.id);
    people.add(personOf(policy, account));
  }
  return people;
}

/**
 * The full check for one approval vote: the role, and never the requester (DESIGN decision 4) —
 * as a person, under any of their identities (`requesterPeople`). The approvals store counts each
 * person once.
 */
export function checkApprover(
  policy: Pick<Policy, 'actors'>,
  vote: {
    approver: Actor;
    requester: Actor;
    requesterPerson: string;
    approverRole: string | readonly string[];
  },
): { ok: true; person: string } | { ok: false; reason: string } {
  const person = personOf(policy, vote.approver);
  if (vote.approver.id === vote.requester.id) {
    return { ok: false, reason: `${vote.approver.id} requested this call and cannot approve it` };
  }
  if (
    requesterPeople(policy, vote.requester, vote.requesterPerson).has(person) ||
    (vote.approver.osUser !== undefined && vote.approver.osUser === vote.requester.osUser)
  ) {
    return {
      ok: false,
      reason: `${vote.approver.id} is ${person}, who requested this call (as ${vote.requester.id}); a requester cannot approve their own request from another identity`,
    };
  }
  if (!canApprove(policy, vote.approver, vote.approverRole)) {
    return {
      ok: false,
      reason: `${vote.approver.id} does not hold the role ${roleWords(vote.approverRole)}`,
    };
  }
  return { ok: true, person };
}
