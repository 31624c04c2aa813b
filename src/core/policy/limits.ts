import { z } from 'zod';
import { formatAmount, fromMinor } from '../money.js';
import { wallAsUtc, wallClockIn, ZoneSchema } from '../zone-clock.js';
import { SomeCurrencyAmounts } from './payee-controls.js';
import { type CountedTotals, capFor, type TotalSubject } from './totals.js';

/**
 * Daily limits (docs/policy.md "Totals and limits"): per requester, beneficiary and source account,
 * per calendar day in one IANA zone, in the currency of the call. A call that would take a total
 * past its cap is refused outright, whatever the rules say; the refusal names the limit and what
 * is left of it.
 */

export const LimitsSectionSchema = z.strictObject({
  /** Whose calendar day the limits count: `Europe/Berlin`, `UTC`. */
  zone: ZoneSchema,
  perRequester: SomeCurrencyAmounts.optional(),
  perBeneficiary: SomeCurrencyAmounts.optional(),
  perSourceAccount: SomeCurrencyAmounts.optional(),
});
export type LimitsSection = z.output<typeof LimitsSectionSchema>;

const LIMITS = [
  ['perRequester', 'requester', 'per requester'],
  ['perBeneficiary', 'beneficiary', 'per beneficiary'],
  ['perSourceAccount', 'sourceAccount', 'per source account'],
] as const satisfies readonly (readonly [keyof LimitsSection, TotalSubject, string])[];

/** The subjects whose daily totals the limits need counted. */
export function limitedSubjects(limits: LimitsSection | undefined): TotalSubject[] {
  if (limits === undefined) return [];
  return LIMITS.filter(([key]) => limits[key] !== undefined).map(([, subject]) => subject);
}

/**
 * The first limit this call would take past its cap, in words ("daily limit per requester
 * 50,000.00 USD (Europe/Berlin day): 10,000.00 USD left"), or undefined. `amount` is the call's,
 * in minor units; the totals include it.
 */
export function limitExceeded(
  limits: LimitsSection | undefined,
  totals: CountedTotals | undefined,
  amount: number,
): string | undefined {
  if (limits === undefined || totals === undefined) return undefined;
  const { currency } = totals;
  for (const [key, subject, words] of LIMITS) {
    const caps = limits[key];
    const total = totals.today[subject];
    if (caps === undefined || total === undefined) continue;
    const cap = capFor(caps, currency);
    if (cap === undefined || total <= cap) continue;
    const left = Math.max(cap - (total - amount), 0);
    const money = (minor: number) => formatAmount(fromMinor(minor, currency));
    return `daily limit ${words} ${money(cap)} (${limits.zone} day): ${money(left)} left (policy limits.${key})`;
  }
  return undefined;
}

/** The last day asked about per zone, [start, end): most calls fall on the same day. */
const days = new Map<string, { start: number; end: number }>();

/** The instant the calendar day of `now` began in `zone` (daylight saving as the IANA zone says). */
export function dayStart(now: Date, zone: string): number {
  const at = now.getTime();
  const known = days.get(zone);
  if (known !== undefined && known.start <= at && at < known.end) return known.start;
  const start = startOfDay(at, zone);
  // A day lasts 23 to 25 hours: 26 after its start is in the next one.
  days.set(zone, { start, end: startOfDay(start + 26 * 3_600_000, zone) });
  return start;
}

function startOfDay(instant: number, zone: string): number {
  const at = Math.floor(instant / 1000) * 1000;
  const wall = wallClockIn(zone, at);
  const midnight = Date.UTC(wall.year, wall.month - 1, wall.day);
  // The offset at the instant first, then at the guess: a day that changed offset since midnight.
  let start = midnight - (wallAsUtc(zone, at) - at);
  start = midnight - (wallAsUtc(zone, start) - start);
  return start;
}
