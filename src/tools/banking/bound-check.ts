import { exceedsBound, fallsShort } from '../../core/approvals/bound.js';
import { formatAmount } from '../../core/money.js';
import { type Money, OutsideApprovedBoundError, type Preview, type ToolContext } from '../../core/tool.js';

/**
 * Refuses to go on when the fresh quote is worse than what the approvers accepted: it would debit
 * more, or deliver less (a fixed debit at a worse rate). The approved preview's `bound` and
 * `receive` already include the configured tolerance (the approval engine seals them when the
 * approval opens, and shows them), so the comparisons here are exact, in minor units. The reason
 * names the bound that failed, with both figures.
 */
export async function checkApprovedBound(
  ctx: Pick<ToolContext, 'approved'>,
  fresh: { debit: Money; receive: Money },
  preview: () => Promise<Preview>,
): Promise<void> {
  const approved = ctx.approved;
  if (approved?.bound === undefined) return;
  const reasons: string[] = [];
  if (exceedsBound(fresh.debit, approved.bound)) {
    reasons.push(
      `the fresh quote debits ${formatAmount(fresh.debit)}, more than the approved maximum of ${formatAmount(approved.bound)}`,
    );
  }
  if (approved.receive !== undefined && fallsShort(fresh.receive, approved.receive)) {
    reasons.push(
      `the fresh quote delivers ${formatAmount(fresh.receive)}, less than the approved minimum of ${formatAmount(approved.receive)}`,
    );
  }
  if (reasons.length > 0) throw new OutsideApprovedBoundError(await preview(), reasons.join('; and '));
}
