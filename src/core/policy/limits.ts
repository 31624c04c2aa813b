import { z } from 'zod';
import { formatAmount, fromMinor } from '../money.js';
import { CurrencyAmounts } from './payee-controls.js';
import { type CountedTotals, capFor, type TotalSubject } from './totals.js';

/**
 * Daily limits (docs/policy.md "Totals and limits"): per requester, beneficiary and source account,
 * per calendar day in one IANA zone, in the currency of the call. A call that would take a total
 * past its cap is refused outright, whatever the rules say; the refusal names the limit and what
 * is left of it.
 */

const ZoneSchema = z
  .string()
  .trim()
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Berlin, America/New_York or UTC');

export const LimitsSectionSchema = z.strictObject({
  /** Whose calendar day the limits count: `Europe/Berlin`, `UTC`. */
  zone: ZoneSchema,
  perRequester: CurrencyAmounts.optional(),
  perBeneficiary: CurrencyAmounts.optional(),
  perSourceAccount: CurrencyAmounts.optional(),
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

const parts = new Map<string, Intl.DateTimeFormat>();

function partsIn(zone: string): Intl.DateTimeFormat {
  let format = parts.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    parts.set(zone, format);
  }
  return format;
}

/** The wall time at `at` in `zone`, read as if it were UTC, as epoch ms (whole seconds). */
function wallAsUtc(at: number, zone: string): { ms: number; y: number; m: number; d: number } {
  const p: Record<string, number> = {};
  for (const part of partsIn(zone).formatToParts(new Date(at))) p[part.type] = Number(part.value);
  const [y, m, d] = [p.year ?? 1970, p.month ?? 1, p.day ?? 1];
  return { ms: Date.UTC(y, m - 1, d, p.hour ?? 0, p.minute ?? 0, p.second ?? 0), y, m, d };
}

/** The instant the calendar day of `now` began in `zone` (daylight saving as the IANA zone says). */
export function dayStart(now: Date, zone: string): number {
  const at = Math.floor(now.getTime() / 1000) * 1000;
  const wall = wallAsUtc(at, zone);
  const midnight = Date.UTC(wall.y, wall.m - 1, wall.d);
  // The offset at `now` first, then at the guess: a day that changed offset since midnight.
  let start = midnight - (wall.ms - at);
  start = midnight - (wallAsUtc(start, zone).ms - start);
  return start;
}
