import type { LimitPeriod, LimitType, SpendLimit } from './state.js';

/**
 * The spec's default card spend limits (Limits, "Default card spend limits"), in USD, applied at
 * card creation and assignment. The per-day counts (100 purchases, 3 withdrawals) have no place
 * in the spend limit item shape, so they are not represented (docs/sandbox/issuing-b.md).
 */
const DEFAULTS: readonly [LimitType, LimitPeriod, number][] = [
  ['PURCHASE', 'TRANSACTION', 250_000],
  ['PURCHASE', 'DAY', 500_000],
  ['PURCHASE', 'MONTH', 2_000_000],
  ['PURCHASE', 'YEAR', 10_000_000],
  ['ATM_CASH_WITHDRAWAL', 'TRANSACTION', 1_500],
  ['ATM_CASH_WITHDRAWAL', 'DAY', 3_000],
  ['ATM_CASH_WITHDRAWAL', 'MONTH', 15_000],
  ['ATM_CASH_WITHDRAWAL', 'YEAR', 50_000],
];

export const LIMIT_CURRENCY = 'USD';

export function defaultLimits(): SpendLimit[] {
  return DEFAULTS.map(([type, period, amount]) => ({
    amount_limit: amount,
    active: true,
    amount_limit_period: period,
    transaction_type: type,
    currency_code: LIMIT_CURRENCY,
  }));
}

/** The active PURCHASE limit of a period as the card details show it: a string, '' when none. */
export function purchaseLimitText(limits: readonly SpendLimit[], period: LimitPeriod): string {
  const item = limits.find(
    (l) => l.active && l.transaction_type === 'PURCHASE' && l.amount_limit_period === period,
  );
  return item === undefined ? '' : String(item.amount_limit);
}
