import { exceedsBound } from '../../core/approvals/bound.js';
import { type Money, OutsideApprovedBoundError, type Preview, type ToolContext } from '../../core/tool.js';

/**
 * Refuses to go on when the fresh quote would debit more than the approvers accepted. The bound in
 * `ctx.approved` already includes the configured tolerance (the approval engine adds it when the
 * approval opens, and shows it), so the comparison here is exact, in minor units.
 */
export function checkApprovedBound(
  ctx: Pick<ToolContext, 'approved'>,
  fresh: Money,
  preview: () => Preview,
): void {
  const bound = ctx.approved?.bound;
  if (bound !== undefined && exceedsBound(fresh, bound))
    throw new OutsideApprovedBoundError(preview(), bound);
}
