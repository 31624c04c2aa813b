import { CodedError, ErrorCode } from '../../core/errors.js';
import { fitsMinorUnits, formatAmount, fromMinor, minorUnitsMessage, toMinor } from '../../core/money.js';
import type { Money, ToolContext } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';

/** A balance before and after a debit, in the currency debited. */
export interface BalanceFacts {
  available: Money;
  after: Money;
}

/** The refusal of a debit the balance cannot cover, with both figures. */
export function insufficient(what: string, debit: Money, available: Money): CodedError {
  return new CodedError({
    code: ErrorCode.InsufficientBalance,
    message: `${what} cannot cover this: ${formatAmount(debit)} to debit, ${formatAmount(available)} available`,
  });
}

/**
 * The company's available balance in the debited currency, now and after the debit (the
 * all-balances view: accounts of one currency share it). Refuses a debit it cannot cover.
 */
export async function companyBalance(
  ctx: ToolContext,
  companyCode: string,
  debit: Money,
): Promise<BalanceFacts> {
  const { balances } = await ctx.client.accounts.balances({ companyCode }, readOptions(ctx));
  const entry = balances.find((b) => b.currency === debit.currency);
  const available: Money = { amount: entry?.availableBalance ?? 0, currency: debit.currency };
  if (toMinor(available) < toMinor(debit))
    throw insufficient(`the ${debit.currency} balance`, debit, available);
  return { available, after: fromMinor(toMinor(available) - toMinor(debit), debit.currency) };
}

/** The zod issue for an amount with more decimals than its currency has (never rounded). */
export function minorUnitsIssue(amount: number, currency: string | undefined) {
  if (currency === undefined || fitsMinorUnits(amount, currency)) return undefined;
  return { code: 'custom' as const, path: ['amount'], message: minorUnitsMessage(amount, currency) };
}

/** An input's check that its amount fits the minor units of the currency it is in. */
export function amountFitsCurrency<T>(currencyOf: (value: T) => string | undefined) {
  return (
    value: T & { amount: number },
    ctx: { addIssue(issue: NonNullable<ReturnType<typeof minorUnitsIssue>>): void },
  ) => {
    const issue = minorUnitsIssue(value.amount, currencyOf(value));
    if (issue !== undefined) ctx.addIssue(issue);
  };
}

/**
 * How a payout or conversion status reads: final or not. The spec shows only PENDING and
 * EXECUTING; the sandbox's later words (PROCESSING, COMPLETED, FAILED) and the usual synonyms of a
 * failure are read as final; any other word means the money is still on its way.
 */
export function settlementOutcome(status: string): 'settling' | 'completed' | 'failed' {
  const word = status.trim().toUpperCase();
  if (['COMPLETED', 'SETTLED', 'SUCCESS', 'SUCCEEDED', 'PAID'].includes(word)) return 'completed';
  if (['FAILED', 'REJECTED', 'CANCELLED', 'CANCELED', 'RETURNED', 'REFUNDED', 'DECLINED'].includes(word))
    return 'failed';
  return 'settling';
}
