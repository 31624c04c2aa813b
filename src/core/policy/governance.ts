import { z } from 'zod';
import type { ActorEntry } from './schema.js';

/**
 * `governance:` (docs/policy.md, "Governance"): once a version with it is in force, the store's
 * version decides in every process, whatever its file says, and only a change proposed by one
 * person holding `role` and approved by `approvers` others holding it replaces it.
 */
export const GovernanceSchema = z.strictObject({
  /** Distinct people who must approve a change (2 by default; 2 to 5). */
  approvers: z.number().int().min(2).max(5).default(2),
  /** The role they hold (`admin` by default). */
  role: z.string().trim().min(1, 'must not be empty').default('admin'),
  /** `passkey`: each vote on a change counts only once confirmed with the voter's passkey. */
  stepUp: z.enum(['passkey']).optional(),
});

export type Governance = z.output<typeof GovernanceSchema>;

/**
 * The distinct people the entries give `role`: an entry's person, else its identity. Entries that
 * match many people (a Slack user group, an IdP group, `cli: '*'`) or no person (the stdio assistant, bankops's
 * own work) name nobody who could be counted.
 */
export function governingPeople(actors: readonly ActorEntry[], role: string): string[] {
  const people = new Set<string>();
  for (const entry of actors) {
    if (!entry.roles.includes(role)) continue;
    const { match } = entry;
    if (match.slackGroup !== undefined || match.cli === '*' || match.mcpStdio !== undefined) continue;
    if (match.system !== undefined || match.oidc?.group !== undefined) continue;
    const identity =
      match.slackUser !== undefined
        ? `slack:${match.slackUser}`
        : match.mcpKey !== undefined
          ? `mcp:${match.mcpKey}`
          : match.oidc !== undefined
            ? `oidc:${match.oidc.email ?? match.oidc.sub ?? ''}`
            : `cli:${match.cli ?? ''}`;
    people.add(entry.person ?? identity);
  }
  return [...people].sort();
}

/**
 * Governance nobody could use is refused: fewer people hold its role than a change needs. A change
 * is proposed by a holder of the role, who never votes on it, and approved by `approvers` others:
 * `approvers + 1` people, or the first proposal could never land.
 */
export function checkGovernance(
  governance: Governance | undefined,
  actors: readonly ActorEntry[],
  ctx: z.RefinementCtx,
): void {
  if (governance === undefined) return;
  const people = governingPeople(actors, governance.role);
  const needed = governance.approvers + 1;
  if (people.length < needed)
    ctx.addIssue({
      code: 'custom',
      path: ['governance'],
      message: `a change needs ${needed} people with role "${governance.role}" (one proposes, ${governance.approvers} others approve) but ${people.length} hold it (${people.join(', ') || 'nobody'}): nobody could approve the next change`,
    });
}
