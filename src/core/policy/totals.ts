import { z } from 'zod';
import { formatAmount, fromMinor, toMinor } from '../money.js';
import { DurationSchema, durationMs, SomeCurrencyAmounts } from './payee-controls.js';
import type { Condition } from './schema.js';

/**
 * Running totals (docs/policy.md "Totals and limits"): how much money a requester, a beneficiary,
 * a source account or the whole company moved or is waiting to move, in the currency of the call,
 * including the call itself. The store adds them up inside the transaction that admits the call
 * (src/core/totals/admit.ts); here they are only compared, so the evaluator stays a pure function.
 */

export const TOTAL_SUBJECTS = ['requester', 'beneficiary', 'sourceAccount', 'company'] as const;
export type TotalSubject = (typeof TOTAL_SUBJECTS)[number];

/** `total: { of: requester, within: 24h, atLeast: { USD: 50000, default: 50000 } }`: a rolling window. */
export const TotalConditionSchema = z.strictObject({
  of: z.enum(TOTAL_SUBJECTS),
  within: DurationSchema,
  atLeast: SomeCurrencyAmounts,
});
export type TotalCondition = z.output<typeof TotalConditionSchema>;

/** One window the evaluator may ask about: the last `within` of one subject. */
export interface TotalWindow {
  of: TotalSubject;
  within: string;
}

export const windowKey = (window: TotalWindow): string => `${window.of}/${window.within}`;

/**
 * What the store counted for one call, in minor units of `currency` (the call's), this call
 * included: per rolling window (`windowKey`), and per subject since the start of the limits' day.
 */
export interface CountedTotals {
  currency: string;
  rolling: Readonly<Record<string, number>>;
  today: Readonly<Partial<Record<TotalSubject, number>>>;
}

/** The threshold for this currency (or `default`), in minor units; undefined when none applies. */
export function capFor(amounts: Readonly<Record<string, number>>, currency: string): number | undefined {
  const key = Object.hasOwn(amounts, currency) ? currency : 'default';
  const cap = Object.hasOwn(amounts, key) ? amounts[key] : undefined;
  return cap === undefined ? undefined : toMinor({ amount: cap, currency });
}

/** Whether a `total:` condition holds: the window's total reaches the threshold of its currency. */
export function totalConditionHolds(condition: TotalCondition, totals: CountedTotals | undefined): boolean {
  // A call the store counted nothing for (it moves no money from an account) never reaches a total.
  if (totals === undefined) return false;
  const total = totals.rolling[windowKey(condition)];
  const threshold = capFor(condition.atLeast, totals.currency);
  return total !== undefined && threshold !== undefined && total >= threshold;
}

/** The start of a rolling window ending at `now`. */
export const windowStart = (window: TotalWindow, now: Date): number =>
  now.getTime() - durationMs(window.within);

const SUBJECT_WORDS: Record<TotalSubject, string> = {
  requester: 'by this requester',
  beneficiary: 'to this beneficiary',
  sourceAccount: 'from this account',
  company: 'by the company',
};

/**
 * The running totals that made a rule's `when` hold, in words an approver reads beside its reason:
 * `to this beneficiary within 24h 3,060.00 USD (this call included), at least 3,000.00 USD`.
 * None when no `total:` condition of it holds (an amount alone reached the rule).
 */
export function totalsReached(condition: Condition | undefined, totals: CountedTotals | undefined): string[] {
  if (condition === undefined || totals === undefined) return [];
  switch (condition.kind) {
    case 'all':
    case 'any':
      return condition.of.flatMap((inner) => totalsReached(inner, totals));
    case 'total': {
      if (!totalConditionHolds(condition, totals)) return [];
      const money = (minor: number) => formatAmount(fromMinor(minor, totals.currency));
      const total = totals.rolling[windowKey(condition)] ?? 0;
      const threshold = capFor(condition.atLeast, totals.currency) ?? 0;
      return [
        `${SUBJECT_WORDS[condition.of]} within ${condition.within} ${money(total)} (this call included), at least ${money(threshold)}`,
      ];
    }
    case 'amount':
    case 'input':
    case 'payee':
    case 'time':
      return [];
  }
}
