import {
  detailsOf,
  type Payee,
  type PayeeChange,
  type PayeeDirectory,
  payeeNamed,
} from '../../core/payees.js';
import type { ToolContext } from '../../core/tool.js';

/**
 * A change of the payee directory that points a name at bank details: a beneficiary created
 * through bankops, or one made elsewhere given its name. A name already known for other bank
 * details is moved to these (`before` says where it pointed). Any change leaves the payee unverified and
 * starts the policy's cooling-off (src/core/policy/payee-controls.ts).
 */
export async function recordChange(
  directory: PayeeDirectory,
  payee: Payee,
  kind: 'created' | 'named',
  ctx: Pick<ToolContext, 'by' | 'approvalId' | 'now' | 'actorName'>,
): Promise<PayeeChange> {
  const earlier = await directory.get(payee.id);
  const other = payee.name === undefined ? undefined : await payeeNamed(directory, payee.name, payee.id);
  const change: PayeeChange = {
    kind: earlier?.changes?.length ? 'named' : kind,
    at: (ctx.now?.() ?? new Date()).toISOString(),
    by: ctx.by ?? { actorId: ctx.actorName, person: ctx.actorName, frontEnd: 'unknown' },
    ...(payee.name === undefined ? {} : { name: payee.name }),
    ...(ctx.approvalId === undefined ? {} : { approvalId: ctx.approvalId }),
    ...(other === undefined ? {} : { before: detailsOf(other) }),
  };
  const { verification: _undone, ...kept } = { ...earlier, ...payee };
  await directory.remember({ ...kept, changes: [...(earlier?.changes ?? []), change] });
  return change;
}

/**
 * `; ACME GmbH is already a payee with other bank details (••••1234, DE, SWIFT, ben_…): this moves
 * the name to new bank details`, for an approval that points a known name elsewhere; '' for none.
 */
export function nameMovesWords(other: Payee | undefined): string {
  if (other === undefined) return '';
  const where = [other.accountMasked, other.country, other.rail, other.id].filter(Boolean).join(', ');
  return `; ${other.name} is already a payee with other bank details (${where}): this moves the name to new bank details`;
}
