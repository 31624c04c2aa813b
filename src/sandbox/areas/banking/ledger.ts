import { invalid } from '../../errors.js';
import { isoUtc } from '../../validate.js';
import { fromMinor } from './money.js';
import type { BankingState, CurrencyBalance } from './state.js';

/** The balance of a currency, created empty if the company never held it (a conversion may credit it). */
export function balanceOf(state: BankingState, currency: string): CurrencyBalance {
  let balance = state.balances.get(currency);
  if (balance === undefined) {
    balance = { currency, availableMinor: 0, prepaidMinor: 0, marginMinor: 0, frozenMinor: 0, asOfMs: null };
    state.balances.set(currency, balance);
  }
  return balance;
}

/** Throws a 400 naming the balance when it cannot cover `minor`. */
export function requireAvailable(state: BankingState, currency: string, minor: number): void {
  const balance = balanceOf(state, currency);
  if (balance.availableMinor < minor) {
    throw invalid(
      `insufficient ${currency} available balance: ${fromMinor(balance.availableMinor, currency)} available, ` +
        `${fromMinor(minor, currency)} needed`,
    );
  }
}

/** Moves `minor` units of one balance between its available and frozen parts, or in and out of it. */
export function adjust(
  state: BankingState,
  currency: string,
  change: { available?: number; frozen?: number },
  nowMs: number,
): void {
  const balance = balanceOf(state, currency);
  balance.availableMinor += change.available ?? 0;
  balance.frozenMinor += change.frozen ?? 0;
  // Settlements are applied lazily and may be dated before a later movement; asOf never goes back.
  balance.asOfMs = Math.max(balance.asOfMs ?? nowMs, nowMs);
}

/** The "Currency balance" resource of the spec. */
export function balanceView(state: BankingState, balance: CurrencyBalance) {
  const c = balance.currency;
  return {
    currency: c,
    accountIds: state.accounts.filter((a) => a.currency === c).map((a) => a.accountId),
    status: 'ACTIVE',
    availableBalance: fromMinor(balance.availableMinor, c),
    prepaidBalance: fromMinor(balance.prepaidMinor, c),
    marginBalance: fromMinor(balance.marginMinor, c),
    frozenBalance: fromMinor(balance.frozenMinor, c),
    asOf: balance.asOfMs === null ? null : isoUtc(new Date(balance.asOfMs)),
  };
}
