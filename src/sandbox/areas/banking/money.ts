/**
 * Currencies the sandbox knows, their minor-unit decimals, and the seeded mid-market rates. Rates
 * are constants so that quotes are reproducible; tests move them with `POST /_sandbox/banking/rates`
 * (they live in the area's state, so a reset restores these).
 */
export const SEED_USD_PER_UNIT: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 1.085,
  GBP: 1.27,
  SGD: 0.745,
  JPY: 0.0067,
};

const DECIMALS: Readonly<Record<string, number>> = { JPY: 0 };

/** Spread taken from the mid-rate on every conversion between two different currencies (0.3 %). */
export const FX_SPREAD = 0.003;

export const KNOWN_CURRENCIES: readonly string[] = Object.keys(SEED_USD_PER_UNIT);

export const isKnownCurrency = (code: string): boolean => Object.hasOwn(SEED_USD_PER_UNIT, code);

export const decimalsOf = (currency: string): number => DECIMALS[currency] ?? 2;

export const toMinor = (amount: number, currency: string): number =>
  Math.round(amount * 10 ** decimalsOf(currency));

export const fromMinor = (minor: number, currency: string): number => minor / 10 ** decimalsOf(currency);

/** Rounds a major-unit amount to the currency's minor unit. */
export const roundTo = (amount: number, currency: string): number =>
  fromMinor(toMinor(amount, currency), currency);

const significant = (value: number): number => Number(value.toPrecision(8));

/**
 * Units of `target` the client receives per unit of `source`, spread included; 1 for the same
 * currency. Both codes must be known.
 */
export function clientRate(
  usdPerUnit: Readonly<Record<string, number>>,
  source: string,
  target: string,
): number {
  if (source === target) return 1;
  const mid = (usdPerUnit[source] ?? Number.NaN) / (usdPerUnit[target] ?? Number.NaN);
  return significant(mid * (1 - FX_SPREAD));
}

export const inverseOf = (rate: number): number => significant(1 / rate);
