import { personOf, requesterPeople, rolesOf } from '../policy/actors.js';
import type { QuorumGroup } from '../policy/quorum.js';
import type { Policy } from '../policy/schema.js';
import type { Approval, Vote } from './approval.js';

export type { QuorumGroup };

/** What an approval asks of its approvers: its groups, or its one role and count as one group. */
export interface QuorumOf {
  approverRole: string;
  requiredApprovers: number;
  groups?: readonly QuorumGroup[] | null | undefined;
}

export function groupsOf(quorum: QuorumOf): QuorumGroup[] {
  return quorum.groups === null || quorum.groups === undefined
    ? [{ role: quorum.approverRole, approvers: quorum.requiredApprovers }]
    : [...quorum.groups];
}

/** The roles whose holders may vote: the one role, or any group's. */
export const approverRolesOf = (quorum: QuorumOf): string[] => groupsOf(quorum).map((group) => group.role);

/** One person who voted, with the roles they hold now. */
export interface Voter {
  person: string;
  roles: readonly string[];
}

/** How far the quorum is: per group, the votes it has now. */
export interface Standing {
  groups: { role: string; approvers: number; approved: number }[];
  complete: boolean;
}

/**
 * Seats each voter in one group they hold the role of, so that as many seats as possible are
 * filled (a maximum bipartite matching by augmenting paths: a few voters and seats, so the simple
 * algorithm). A person with two roles takes whichever seat lets the quorum complete: A (treasury
 * and controller) then B (treasury only) fill treasury with B and controller with A.
 */
export function seat(groups: readonly QuorumGroup[], voters: readonly Voter[]): Standing {
  const seats = groups.flatMap((group, g) => Array.from({ length: group.approvers }, () => g));
  const holder: (number | undefined)[] = seats.map(() => undefined);
  const canTake = (v: number, s: number) => {
    const group = groups[seats[s] ?? -1];
    return group !== undefined && (voters[v]?.roles.includes(group.role) ?? false);
  };
  const place = (v: number, tried: boolean[]): boolean => {
    for (let s = 0; s < seats.length; s++) {
      if (tried[s] || !canTake(v, s)) continue;
      tried[s] = true;
      const other = holder[s];
      if (other === undefined || place(other, tried)) {
        holder[s] = v;
        return true;
      }
    }
    return false;
  };
  for (let v = 0; v < voters.length; v++)
    place(
      v,
      seats.map(() => false),
    );
  const approved = groups.map(() => 0);
  for (const [s, h] of holder.entries()) {
    const g = seats[s];
    if (h !== undefined && g !== undefined) approved[g] = (approved[g] ?? 0) + 1;
  }
  return {
    groups: groups.map((group, g) => ({
      role: group.role,
      approvers: group.approvers,
      approved: approved[g] ?? 0,
    })),
    complete: holder.every((h) => h !== undefined),
  };
}

/**
 * The quorum as it stands now: each earlier vote's identity judged again under the policy in
 * force — its person (a mapping added or removed since the vote counts) and its roles: a voter
 * who no longer holds a group's role stops counting there (offboarding). The groups and their
 * counts stay those the approval opened under (kept on the row). Each person once, with the
 * roles of all their identities that voted; never the requester.
 */
export function standing(policy: Pick<Policy, 'actors'>, row: Approval, votes: readonly Vote[]): Standing {
  const requesters = requesterPeople(policy, row.requester, row.requesterPerson);
  const roles = new Map<string, Set<string>>();
  for (const vote of votes) {
    const person = personOf(policy, vote.approver);
    if (requesters.has(person) || requesters.has(vote.person)) continue;
    const held = roles.get(person) ?? new Set<string>();
    for (const role of rolesOf(policy, vote.approver)) held.add(role);
    roles.set(person, held);
  }
  const voters = [...roles].map(([person, held]) => ({ person, roles: [...held] }));
  return seat(groupsOf(row), voters);
}
