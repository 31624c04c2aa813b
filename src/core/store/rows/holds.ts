import type { MoneyHold } from '../../totals/store.js';

/**
 * A hold's values in the order both backends' INSERT names its columns: id, at_ms, requester,
 * beneficiary, source_account, currency, amount_minor, approval_id.
 */
export const holdValues = (hold: MoneyHold): (string | number | null)[] => [
  hold.id,
  hold.at,
  hold.requester,
  hold.beneficiary ?? null,
  hold.sourceAccount ?? null,
  hold.currency,
  hold.amount,
  hold.approvalId ?? null,
];
