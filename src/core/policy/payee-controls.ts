import { z } from 'zod';
import type { Money } from './types.js';

/**
 * The payee controls (docs/policy.md "Payees"): after any change of the payee directory that
 * points a name at bank details, a cooling-off period during which a payout to it is refused,
 * needs one more approver, or needs each vote confirmed with a passkey; and an optional cap on
 * the first payment to a payee, per currency.
 */

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `24h`, `3d`. */
export const DurationSchema = z
  .string()
  .trim()
  .regex(/^[1-9]\d{0,5}[mhd]$/, 'must be a duration in minutes, hours or days (30m, 24h, 3d)');

export function durationMs(text: string): number {
  const unit = text.slice(-1) as keyof typeof UNIT_MS;
  return Number(text.slice(0, -1)) * UNIT_MS[unit];
}

/** Amounts per currency: `{ USD: 50000, default: 45000 }`. */
export const CurrencyAmounts = z.record(
  z.string().regex(/^([A-Z]{3}|default)$/, 'a 3-letter upper-case currency code or "default"'),
  z.number().finite().nonnegative(),
);

/** Amounts per currency that name at least one currency or `default`: a cap or threshold that says something. */
export const SomeCurrencyAmounts = CurrencyAmounts.refine(
  (amounts) => Object.keys(amounts).length > 0,
  'needs at least one currency or "default"',
);

export const PayeesSectionSchema = z.strictObject({
  coolingOff: z
    .strictObject({
      period: DurationSchema.default('24h'),
      action: z.enum(['refuse', 'extraApprover', 'stepUp']).default('refuse'),
      /** A call-back verification ends the period early (by default it does not: two controls). */
      endsWhenVerified: z.boolean().default(false),
    })
    .optional(),
  /** The most a first payment to a payee may be, per currency (`default` for the others). */
  firstPaymentMax: CurrencyAmounts.optional(),
});
export type PayeesSection = z.output<typeof PayeesSectionSchema>;

/** What the evaluator knows of the payee of a payout (from the store, before it decides). */
export interface PayeeControlFacts {
  id: string;
  name?: string | undefined;
  /** No payout to it went out before. */
  firstPayment: boolean;
  /** When its name last came to point at its bank details. */
  changedAt?: string | undefined;
  verified: boolean;
}

/** The cooling-off in force for this payee now: its end, or undefined when none. */
export function coolingOffEnd(
  section: PayeesSection | undefined,
  payee: PayeeControlFacts,
  now: Date,
): Date | undefined {
  const cooling = section?.coolingOff;
  if (cooling === undefined || payee.changedAt === undefined) return undefined;
  if (cooling.endsWhenVerified && payee.verified) return undefined;
  const end = new Date(Date.parse(payee.changedAt) + durationMs(cooling.period));
  return end > now ? end : undefined;
}

/** A first payment above the policy's cap: the refusal's words, or undefined. */
export function firstPaymentOver(
  section: PayeesSection | undefined,
  payee: PayeeControlFacts,
  money: Money | undefined,
): string | undefined {
  const caps = section?.firstPaymentMax;
  if (caps === undefined || money === undefined || !payee.firstPayment) return undefined;
  const cap = caps[money.currency] ?? caps.default;
  if (cap === undefined || money.amount <= cap) return undefined;
  return `a first payment to ${payee.name ?? payee.id} may be at most ${cap} ${money.currency} (policy payees.firstPaymentMax); this one is ${money.amount} ${money.currency}`;
}

/** `payee:` conditions of a rule's `when`. */
export const PayeeConditionSchema = z
  .strictObject({
    firstPayment: z.boolean().optional(),
    changedWithin: DurationSchema.optional(),
    verified: z.boolean().optional(),
  })
  .refine(
    (c) => Object.values(c).some((v) => v !== undefined),
    'needs firstPayment, changedWithin or verified',
  );
export type PayeeCondition = z.output<typeof PayeeConditionSchema>;

/** Whether every part of a `payee:` condition holds; a call with no payee never matches. */
export function payeeConditionHolds(
  condition: PayeeCondition,
  payee: PayeeControlFacts | undefined,
  now: Date,
): boolean {
  if (payee === undefined) return false;
  if (condition.firstPayment !== undefined && payee.firstPayment !== condition.firstPayment) return false;
  if (condition.verified !== undefined && payee.verified !== condition.verified) return false;
  if (condition.changedWithin !== undefined) {
    if (payee.changedAt === undefined) return false;
    if (now.getTime() - Date.parse(payee.changedAt) > durationMs(condition.changedWithin)) return false;
  }
  return true;
}
