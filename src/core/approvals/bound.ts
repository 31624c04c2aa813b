import { formatAmount, fromMinor, toMinor } from '../money.js';
import { optional } from '../optional.js';
import type { ApprovalBound, Money, Preview } from './view-schema.js';

/**
 * The bound approvers are asked to accept: the quoted debit plus `tolerancePercent`, rounded DOWN
 * to the minor unit, so the tolerance is never exceeded by rounding. Computed in integers (basis
 * points), hence the tolerance counts to 0.01 %.
 */
export function boundFor(quoted: Money, tolerancePercent: number): ApprovalBound {
  const currency = quoted.currency.trim().toUpperCase();
  const minor = toMinor({ amount: quoted.amount, currency });
  const basisPoints = Math.round(tolerancePercent * 100);
  const max = minor + Math.floor((minor * basisPoints) / 10_000);
  return {
    quoted: fromMinor(minor, currency),
    tolerancePercent: basisPoints / 100,
    max: fromMinor(max, currency),
  };
}

/**
 * The least a fresh quote may deliver: what the shown quote delivers less `tolerancePercent`,
 * rounded UP to the minor unit, so the tolerance is never exceeded by rounding.
 */
export function minReceiveFor(quoted: Money, tolerancePercent: number): Money {
  const currency = quoted.currency.trim().toUpperCase();
  const minor = toMinor({ amount: quoted.amount, currency });
  const basisPoints = Math.round(tolerancePercent * 100);
  return fromMinor(minor - Math.floor((minor * basisPoints) / 10_000), currency);
}

/** True when `fresh` delivers less than `minimum`, or in another currency. */
export function fallsShort(fresh: Money, minimum: Money): boolean {
  if (fresh.currency.trim().toUpperCase() !== minimum.currency.trim().toUpperCase()) return true;
  return toMinor(fresh) < toMinor(minimum);
}

/**
 * True when `fresh` may not be executed under `bound`: more minor units, or another currency (an
 * amount in another currency was never approved, whatever its value).
 */
export function exceedsBound(fresh: Money, bound: Money): boolean {
  if (fresh.currency.trim().toUpperCase() !== bound.currency.trim().toUpperCase()) return true;
  return toMinor(fresh) > toMinor(bound);
}

/**
 * The preview as approvers see it: the tool's bound replaced by the maximum (quote + tolerance) and
 * the summary saying so, so every front end shows the limit without knowing about tolerances.
 */
export function sealPreview(
  preview: Preview,
  tolerancePercent: number,
): { preview: Preview; bound?: ApprovalBound } {
  if (preview.bound === undefined) return { preview };
  const debit = boundFor(preview.bound, tolerancePercent);
  const minReceive =
    preview.receive === undefined ? undefined : minReceiveFor(preview.receive, tolerancePercent);
  const bound: ApprovalBound = minReceive === undefined ? debit : { ...debit, minReceive };
  const tolerance = bound.tolerancePercent === 0 ? '' : ` (quoted ± ${bound.tolerancePercent} %)`;
  const delivers = minReceive === undefined ? '' : ` and delivers at least ${formatAmount(minReceive)}`;
  const limit = `executes only if a fresh quote debits at most ${formatAmount(bound.max)}${delivers}${tolerance}`;
  return {
    preview: {
      summary: `${preview.summary}; ${limit}`,
      ...optional('facts', preview.facts),
      details: preview.details,
      bound: bound.max,
      ...optional('receive', minReceive),
    },
    bound,
  };
}
