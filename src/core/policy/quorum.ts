import { z } from 'zod';

/**
 * A quorum from several groups (docs/policy.md "Quorum from several groups"): `approval.from:
 * [{ role: treasury, approvers: 1 }, { role: controller, approvers: 1 }]` asks one vote from each
 * group. A person counts once, in whichever group lets the quorum complete (a matching of voters
 * to seats, src/core/approvals/quorum.ts); never the requester.
 */

export const QuorumGroupSchema = z.strictObject({
  role: z.string().trim().min(1, 'must not be empty'),
  approvers: z.number().int().min(1).max(5),
});
export type QuorumGroup = z.output<typeof QuorumGroupSchema>;

export const QuorumFromSchema = z
  .array(QuorumGroupSchema)
  .min(2, 'needs two groups or more; for one group give approvers and role instead')
  .max(5)
  .superRefine((groups, ctx) => {
    const seen = new Set<string>();
    for (const [i, group] of groups.entries()) {
      if (seen.has(group.role))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'role'],
          message: `role "${group.role}" is already a group; give its approvers once`,
        });
      seen.add(group.role);
    }
    const total = groups.reduce((sum, group) => sum + group.approvers, 0);
    if (total > 10) ctx.addIssue({ code: 'custom', message: `asks ${total} approvers in all; at most 10` });
  });

/** `approval`'s two forms are exclusive: `approvers` with `role`, or `from`. */
export function checkQuorumForm(
  approval: { approvers?: number | undefined; role?: string | undefined; from?: QuorumGroup[] | undefined },
  ctx: z.RefinementCtx,
): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (approval.from !== undefined) {
    for (const key of ['approvers', 'role'] as const) {
      if (approval[key] !== undefined)
        issue(key, 'give either from (groups) or approvers and role, not both');
    }
    return;
  }
  if (approval.approvers === undefined) issue('approvers', 'required (or give from: a list of groups)');
  if (approval.role === undefined) issue('role', 'required (or give from: a list of groups)');
}

/**
 * The approval as the evaluator uses it: `approvers` the votes needed in all and `role` the
 * groups' roles in words (`treasury and controller`) for a quorum `from` groups; unchanged for
 * the single-role form.
 */
export function normalQuorum<
  T extends { approvers?: number | undefined; role?: string | undefined; from?: QuorumGroup[] | undefined },
>(approval: T): Omit<T, 'approvers' | 'role'> & { approvers: number; role: string } {
  const { approvers, role, ...rest } = approval;
  // approvers and role first, where the file writes them: a policy diff lists fields in this order.
  if (approval.from === undefined) return { approvers: approvers ?? 1, role: role ?? '', ...rest };
  return {
    approvers: approval.from.reduce((sum, group) => sum + group.approvers, 0),
    role: quorumRoleWords(approval.from),
    ...rest,
  };
}

/** `treasury and controller`, `treasury, controller and audit`. */
export function quorumRoleWords(groups: readonly QuorumGroup[]): string {
  const roles = groups.map((group) => group.role);
  return roles.length <= 1 ? (roles[0] ?? '') : `${roles.slice(0, -1).join(', ')} and ${roles.at(-1)}`;
}

/** `1 approver with role treasury and 1 with role controller`. */
export function quorumWords(groups: readonly QuorumGroup[]): string {
  return groups
    .map(
      (g, i) =>
        `${g.approvers} ${i === 0 ? (g.approvers === 1 ? 'approver ' : 'approvers ') : ''}with role ${g.role}`,
    )
    .join(' and ');
}
