import { exceedsBound, fallsShort } from '../../core/approvals/bound.js';
import { type Money, OutsideApprovedBoundError, type Preview, type ToolContext } from '../../core/tool.js';

/**
 * Refuses to go on when the fresh quote is worse than what the approvers accepted: it would debit
 * more, or deliver less (a fixed debit at a worse rate). The approved preview's `bound` and
 * `receive` already include the configured tolerance (the approval engine seals them when the
 * approval opens, and shows them), so the comparisons here are exact, in minor units.
 */
export function checkApprovedBound(
  ctx: Pick<ToolContext, 'approved'>,
  fresh: { debit: Money; receive: Money },
  preview: () => Preview,
): void {
  const approved = ctx.approved;
  if (approved?.bound === undefined) return;
  const worse =
    exceedsBound(fresh.debit, approved.bound) ||
    (approved.receive !== undefined && fallsShort(fresh.receive, approved.receive));
  if (worse) throw new OutsideApprovedBoundError(preview(), approved.bound);
}
