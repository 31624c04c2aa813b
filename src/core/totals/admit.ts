import { randomUUID } from 'node:crypto';
import { toMinor } from '../money.js';
import { personOf } from '../policy/actors.js';
import { moneyOf } from '../policy/conditions.js';
import { evaluate } from '../policy/evaluate.js';
import { dayStart, limitedSubjects } from '../policy/limits.js';
import type { Condition, Policy } from '../policy/schema.js';
import {
  type CountedTotals,
  type TotalSubject,
  type TotalWindow,
  windowKey,
  windowStart,
} from '../policy/totals.js';
import type { Actor, Decision, EvaluationRequest, PolicyTool } from '../policy/types.js';
import type { Stores, Tx } from '../store/index.js';
import type { HoldCount, HoldSums, MoneyHold } from './store.js';

/**
 * Running totals and daily limits, decided in the store (DESIGN decision 19): a call that takes
 * money from an account is counted in the transaction that admits it (opens its approval, or lets
 * it run), under its subjects' locks, and the pure evaluator decides again on those totals. So two
 * replicas never both admit the call that crosses a limit.
 */

/** What the policy counts: its rolling windows and the subjects of its daily limits. */
interface Needs {
  windows: TotalWindow[];
  daily: TotalSubject[];
}

const needsOf = new WeakMap<Policy, Needs>();

function windowsIn(condition: Condition, into: Map<string, TotalWindow>): void {
  switch (condition.kind) {
    case 'total':
      into.set(windowKey(condition), { of: condition.of, within: condition.within });
      return;
    case 'all':
    case 'any':
      for (const inner of condition.of) windowsIn(inner, into);
      return;
    case 'amount':
    case 'input':
    case 'payee':
      return;
  }
}

function needs(policy: Policy): Needs {
  let found = needsOf.get(policy);
  if (found === undefined) {
    const windows = new Map<string, TotalWindow>();
    for (const rule of policy.rules) if (rule.when !== undefined) windowsIn(rule.when, windows);
    found = { windows: [...windows.values()], daily: limitedSubjects(policy.limits) };
    needsOf.set(policy, found);
  }
  return found;
}

/** The call as the totals count it: who asks, whom it pays, from which account, how much. */
export interface Movement {
  requester: string;
  beneficiary?: string | undefined;
  sourceAccount?: string | undefined;
  currency: string;
  /** Minor units. */
  amount: number;
}

/** A call to count: its movement, and the policy and moment it is judged by. */
export interface CountedCall {
  movement: Movement;
  policy: Policy;
  now: Date;
}

/** Whether the policy counts anything: a `total:` condition, or a daily limit. */
export function countsTotals(policy: Policy): boolean {
  const { windows, daily } = needs(policy);
  return windows.length > 0 || daily.length > 0;
}

/**
 * The call to count, when it takes money from an account: its hold is kept whatever the policy
 * counts today, so totals and limits switched on later count what moved before them.
 */
export function countedCall(
  policy: Policy,
  tool: PolicyTool,
  input: unknown,
  actor: Actor,
  now: Date,
): CountedCall | undefined {
  const sourceAccount = tool.sourceAccount?.(input);
  if (sourceAccount === undefined) return undefined;
  let money: ReturnType<typeof moneyOf>;
  try {
    money = moneyOf(tool, input);
  } catch {
    // The evaluator denies a call whose amount cannot be told, and says why.
    return undefined;
  }
  if (money === undefined) return undefined;
  const movement: Movement = {
    requester: personOf(policy, actor),
    beneficiary: tool.payee?.(input),
    sourceAccount,
    currency: money.currency,
    amount: toMinor(money),
  };
  return { movement, policy, now };
}

function subjectOf(movement: Movement, of: TotalSubject): string | undefined {
  switch (of) {
    case 'requester':
      return movement.requester;
    case 'beneficiary':
      return movement.beneficiary;
    case 'sourceAccount':
      return movement.sourceAccount;
    case 'company':
      return '';
  }
}

/** The subjects this call is counted under, as lock keys. */
function lockKeys(call: CountedCall): string[] {
  const { windows, daily } = needs(call.policy);
  const subjects = new Set<TotalSubject>([...windows.map((w) => w.of), ...daily]);
  const keys: string[] = [];
  for (const of of subjects) {
    const subject = subjectOf(call.movement, of);
    if (subject !== undefined) keys.push(`${of}:${subject}`);
  }
  return keys;
}

/** What a count asks the store, and how its sums make the call's totals. */
export interface Tally {
  count: HoldCount;
  totals(sums: readonly (readonly number[])[]): CountedTotals;
}

/** The count of the call: one query per subject, one start per window and for the limits' day. */
function tally(call: CountedCall, locks: readonly string[]): Tally {
  const { windows, daily } = needs(call.policy);
  const { movement, now } = call;
  const start = call.policy.limits === undefined ? undefined : dayStart(now, call.policy.limits.zone);
  const counts: { of: TotalSubject; mine: TotalWindow[]; daily: boolean }[] = [];
  const queries: HoldSums[] = [];
  for (const of of new Set<TotalSubject>([...windows.map((w) => w.of), ...daily])) {
    const subject = subjectOf(movement, of);
    if (subject === undefined) continue;
    const mine = windows.filter((w) => w.of === of);
    const since = mine.map((w) => windowStart(w, now));
    const counted = daily.includes(of) && start !== undefined;
    if (counted) since.push(start);
    counts.push({ of, mine, daily: counted });
    queries.push({ of, subject, currency: movement.currency, since });
  }
  const totals = (sums: readonly (readonly number[])[]): CountedTotals => {
    const rolling: Record<string, number> = {};
    const today: Partial<Record<TotalSubject, number>> = {};
    counts.forEach(({ of, mine, daily: counted }, k) => {
      const found = sums[k] ?? [];
      mine.forEach((w, i) => {
        rolling[windowKey(w)] = (found[i] ?? 0) + movement.amount;
      });
      if (counted) today[of] = (found[mine.length] ?? 0) + movement.amount;
    });
    return { currency: movement.currency, rolling, today };
  };
  return { count: { locks, queries }, totals };
}

/** The totals of the call, itself included, as committed in `stores` (one statement, no lock). */
export async function countTotals(stores: Stores, call: CountedCall): Promise<CountedTotals> {
  const { count, totals } = tally(call, []);
  return totals(await stores.holds.count(count));
}

/** The count of the call that admits it, under its subjects' locks (made once an admission: ./direct.ts). */
export const admissionTally = (call: CountedCall): Tally => tally(call, lockKeys(call));

/**
 * Inside the admitting transaction: takes the call's subjects' locks, counts (`counting`, the very
 * count the transaction began with), and decides again on what is committed now (another replica
 * may have admitted a call since the first look).
 */
export async function decideCounted(
  tx: Tx,
  call: CountedCall,
  counting: Tally,
  request: Omit<EvaluationRequest, 'totals'>,
): Promise<Decision> {
  return evaluate(call.policy, { ...request, totals: counting.totals(await tx.holds.count(counting.count)) });
}

/** Counts the call from now on (tied to its approval when it waits for one); returns the hold's id. */
export async function holdFor(tx: Tx, call: CountedCall, approvalId?: string): Promise<string> {
  const hold = holdOf(call, approvalId);
  await tx.holds.insert(hold);
  return hold.id;
}

/** The call's row of the running totals. */
export const holdOf = (call: CountedCall, approvalId?: string): MoneyHold => ({
  id: `hold_${randomUUID()}`,
  at: call.now.getTime(),
  ...call.movement,
  approvalId,
});
