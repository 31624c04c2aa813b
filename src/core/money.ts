import type { Money } from './approvals/view-schema.js';

export type { Money } from './approvals/view-schema.js';

// ISO 4217 currencies without the usual two decimals; every other code is taken to have two.
const ZERO_DECIMALS = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** ISO 4217 minor units of a currency: JPY 0, USD 2, KWD 3. */
export function minorDigits(currency: string): number {
  const code = currency.trim().toUpperCase();
  if (ZERO_DECIMALS.has(code)) return 0;
  return THREE_DECIMALS.has(code) ? 3 : 2;
}

/** An amount in integer minor units, so comparisons are exact (1026 × 1.005 is 1031.1299… in floats). */
export const toMinor = (money: Money): number => Math.round(money.amount * 10 ** minorDigits(money.currency));

export const fromMinor = (minor: number, currency: string): Money => ({
  amount: minor / 10 ** minorDigits(currency),
  currency,
});

/**
 * Whether an amount has no more decimals than its currency allows (100.12 USD yes, 100.123 USD and
 * 10.5 JPY no). Such an amount is invalid input: it is never rounded to what the service would pay.
 */
export function fitsMinorUnits(amount: number, currency: string): boolean {
  // Exact: the number written with the currency's digits is the same number (0.29 stays 0.29;
  // 10000.005 becomes 10000.01 and 49999.999 becomes 50000.00, so they do not fit). An error that
  // grew with the amount would let a large amount with a third decimal through.
  return Number.isFinite(amount) && Number(amount.toFixed(minorDigits(currency))) === amount;
}

/** `must have at most 2 decimals for USD (ISO 4217), got 100.123`: one message, everywhere. */
export const minorUnitsMessage = (amount: number, currency: string): string => {
  const digits = minorDigits(currency);
  return digits === 0
    ? `must be a whole number for ${currency} (it has no minor unit), got ${amount}`
    : `must have at most ${digits} decimals for ${currency} (ISO 4217), got ${amount}`;
};

/** `1,031.13 USD`: grouped, with the currency's minor digits. */
export const formatAmount = (money: Money): string =>
  `${money.amount.toLocaleString('en-US', {
    minimumFractionDigits: minorDigits(money.currency),
    maximumFractionDigits: minorDigits(money.currency),
  })} ${money.currency}`;
