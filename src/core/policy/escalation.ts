import type { Policy, Rule } from './schema.js';

/**
 * A control documented backwards: a rule for larger amounts of a tool that asks less than a rule
 * for smaller ones (fewer approvers, or no passkey where the smaller amounts need one), so 60,000
 * USD goes through with less than 1,000 USD. Not an error (the policy is the bank's to write), but
 * said at load, on every reload, and by `bankops config check`.
 *
 * Rules are matched first to last: a rule whose `when` is an amount threshold is the larger amounts'
 * rule; a later rule for the same tool with no condition, or a threshold no higher in any currency,
 * takes the smaller amounts.
 */

type Thresholds = Record<string, number>;

const thresholdsOf = (rule: Rule): Thresholds | undefined =>
  rule.when?.kind === 'amount' ? rule.when.atLeast : undefined;

/** Whether `smaller` starts no higher than `larger` in every currency `larger` names. */
function startsLower(smaller: Thresholds | undefined, larger: Thresholds): boolean {
  if (smaller === undefined) return true;
  return Object.entries(larger).every(([currency, from]) => {
    const own = smaller[currency] ?? smaller.default;
    return own !== undefined && own <= from;
  });
}

/** `2 approvers with a passkey`, `no approval`: what a rule asks, for the warning. */
function asks(rule: Rule): string {
  const approval = rule.approval;
  if (approval === undefined) return 'no approval';
  const people = approval.approvers === 1 ? '1 approver' : `${approval.approvers} approvers`;
  return `${people}${approval.stepUp === undefined ? ' without a passkey' : ' with a passkey'}`;
}

/** Whether `larger` asks less than `smaller`: fewer approvers, or no passkey where `smaller` wants one. */
function asksLess(larger: Rule, smaller: Rule): boolean {
  const big = larger.approval;
  const small = smaller.approval;
  if (small === undefined) return false;
  if (big === undefined) return true;
  return big.approvers < small.approvers || (small.stepUp !== undefined && big.stepUp === undefined);
}

const label = (rule: Rule, index: number): string => `'${rule.name ?? `rule ${index + 1}`}'`;

const amounts = (t: Thresholds): string =>
  Object.entries(t)
    .map(([currency, from]) =>
      currency === 'default' ? `${from} in other currencies` : `${from} ${currency}`,
    )
    .join(', ');

/** One sentence per pair of rules where the larger amounts ask less; none for a consistent policy. */
export function weakerForLarger(policy: Pick<Policy, 'rules'>): string[] {
  const found: string[] = [];
  policy.rules.forEach((larger, i) => {
    const from = thresholdsOf(larger);
    if (from === undefined) return;
    policy.rules.forEach((smaller, j) => {
      if (j <= i || !startsLower(thresholdsOf(smaller), from) || !asksLess(larger, smaller)) return;
      const tools = (larger.tools ?? []).filter((tool) => smaller.tools?.includes(tool));
      for (const tool of tools) {
        found.push(
          `rule ${label(larger, i)} asks less for ${tool} from ${amounts(from)} (${asks(larger)}) than rule ${label(smaller, j)} asks for smaller amounts (${asks(smaller)}): make the larger amounts' rule at least as strict`,
        );
      }
    });
  });
  return found;
}
