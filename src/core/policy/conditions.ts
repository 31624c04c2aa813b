import { CodedError, ErrorCode, messageOf } from '../errors.js';
import { type PayeeControlFacts, payeeConditionHolds } from './payee-controls.js';
import type { Condition } from './schema.js';
import { timeConditionHolds } from './time-window.js';
import { type CountedTotals, totalConditionHolds } from './totals.js';
import type { Money, PolicyTool } from './types.js';

/** A condition that cannot be decided (a tool's `money` threw or returned nonsense); the call is denied. */
export class ConditionError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super({ code: ErrorCode.Internal, message, original: options?.cause });
    this.name = 'ConditionError';
  }
}

/** The amount a call moves, computed once per evaluation and checked, since it decides approvals. */
export function moneyOf(tool: PolicyTool, input: unknown): Money | undefined {
  if (tool.money === undefined) return undefined;
  let money: Money | undefined;
  try {
    money = tool.money(input);
  } catch (error) {
    const detail = messageOf(error);
    throw new ConditionError(`cannot tell the amount of this ${tool.name} call: ${detail}`, { cause: error });
  }
  if (money === undefined) return undefined;
  if (!Number.isFinite(money.amount) || typeof money.currency !== 'string' || money.currency.trim() === '') {
    throw new ConditionError(
      `cannot tell the amount of this ${tool.name} call: the tool reported no valid amount`,
    );
  }
  return { amount: money.amount, currency: money.currency.trim().toUpperCase() };
}

/** The value at a dotted path, reading own properties only (a path never reaches the prototype). */
export function valueAt(input: unknown, path: string): unknown {
  let current: unknown = input;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export interface ConditionInput {
  input: unknown;
  money: Money | undefined;
  /** The payee of a payout, as the store knew it when the call came. */
  payee?: PayeeControlFacts | undefined;
  now?: Date | undefined;
  /** The running totals the store counted for this call, itself included (./totals.ts). */
  totals?: CountedTotals | undefined;
}

/** Whether a rule's `when` holds for this call. */
export function conditionHolds(condition: Condition, call: ConditionInput): boolean {
  switch (condition.kind) {
    case 'all':
      return condition.of.every((inner) => conditionHolds(inner, call));
    case 'any':
      return condition.of.some((inner) => conditionHolds(inner, call));
    case 'amount': {
      // A tool that moves no money never reaches an amount threshold.
      if (call.money === undefined) return false;
      const { atLeast } = condition;
      const key = Object.hasOwn(atLeast, call.money.currency) ? call.money.currency : 'default';
      const threshold = Object.hasOwn(atLeast, key) ? atLeast[key] : undefined;
      return threshold !== undefined && call.money.amount >= threshold;
    }
    case 'payee':
      return payeeConditionHolds(condition, call.payee, call.now ?? new Date());
    case 'total':
      return totalConditionHolds(condition, call.totals);
    case 'time':
      return timeConditionHolds(condition, call.now ?? new Date());
    case 'input': {
      const value = valueAt(call.input, condition.path);
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return false;
      // Case-insensitive: a tool that accepts `lost` must not slip past a rule written for `LOST`.
      const seen = String(value).toUpperCase();
      return condition.in.some((wanted) => wanted.toUpperCase() === seen);
    }
  }
}
