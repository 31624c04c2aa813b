import { formatAmount, toMinor } from '../money.js';
import { optional } from '../optional.js';
import { rolesOf } from './actors.js';
import { changeDecision, PROPOSE_POLICY } from './change-rule.js';
import { ConditionError, type ConditionInput, conditionHolds, moneyOf } from './conditions.js';
import { limitExceeded } from './limits.js';
import { coolingOffEnd, firstPaymentOver, type PayeeControlFacts } from './payee-controls.js';
import { type QuorumGroup, quorumWords } from './quorum.js';
import type { Condition, Policy, Rule } from './schema.js';
import { type CountedTotals, totalsReached } from './totals.js';
import type { Decision, EvaluationRequest, Money, PolicyTool, RuleRef } from './types.js';

export function ruleRef(rule: Rule, index: number): RuleRef {
  return { index, name: rule.name, label: rule.name === undefined ? `rules[${index}]` : `'${rule.name}'` };
}

function selects(rule: Rule, tool: PolicyTool): boolean {
  if (rule.tools !== undefined && !rule.tools.includes(tool.name)) return false;
  if (rule.toolsets !== undefined && !rule.toolsets.includes(tool.toolset)) return false;
  if (rule.readOnly !== undefined && rule.readOnly !== tool.hints.readOnly) return false;
  return true;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Who an approval needs: `2 approvers with role approver`, or its quorum's groups in words. */
const needsWords = (approvers: number, role: string, from: readonly QuorumGroup[] | undefined): string =>
  from === undefined ? `${plural(approvers, 'approver')} with role ${role}` : quorumWords(from);

const describeCall = (tool: PolicyTool, money: Money | undefined) =>
  money === undefined ? tool.name : `${tool.name} of ${money.amount} ${money.currency}`;

/**
 * The first rule whose selectors (tools, toolsets, readOnly) and `when` all hold, or undefined.
 * Matching ignores the actor: the rule that governs a call is the same whoever asks, and the
 * actor's roles are then checked against that rule only (no falling through to a later rule).
 */
export function matchingRule(
  policy: Pick<Policy, 'rules'>,
  tool: PolicyTool,
  input: unknown,
  money: Money | undefined,
  facts: Pick<ConditionInput, 'payee' | 'now' | 'totals'> = {},
): { rule: Rule; ref: RuleRef } | undefined {
  for (const [index, rule] of policy.rules.entries()) {
    if (!selects(rule, tool)) continue;
    if (rule.when !== undefined && !conditionHolds(rule.when, { input, money, ...facts })) continue;
    return { rule, ref: ruleRef(rule, index) };
  }
  return undefined;
}

/** allow, deny (with a reason a person can act on) or approval (how many approvers, which role). */
export function evaluate(policy: Policy, request: EvaluationRequest): Decision {
  const { tool, input, actor } = request;
  const roles = rolesOf(policy, actor);
  if (roles.length === 0) {
    return {
      decision: 'deny',
      reason: `${actor.id} is an unknown actor: no entry of the policy's actors list gives it a role`,
    };
  }

  if (tool.name === PROPOSE_POLICY) return changeDecision(policy, actor);

  let money: Money | undefined;
  let match: ReturnType<typeof matchingRule>;
  try {
    // Computed once up front so every rule sees the same amount; a tool that cannot tell is denied.
    money = moneyOf(tool, input);
    match = matchingRule(policy, tool, input, money, {
      payee: request.payee,
      now: request.now,
      totals: request.totals,
    });
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    return { decision: 'deny', reason: `${error.message}; denied because the policy cannot be applied` };
  }

  if (match === undefined) {
    return {
      decision: 'deny',
      reason: `no policy rule covers ${tool.name}; calls no rule covers are denied`,
    };
  }
  const { rule, ref } = match;
  const role = rule.allow.find((allowed) => roles.includes(allowed));
  if (role === undefined) {
    const needed = rule.allow.length === 0 ? 'is allowed to nobody' : `needs role ${rule.allow.join(' or ')}`;
    // A role no entry of the actors list gives (the shipped `verifier`): say so, or people hunt for who has it.
    const held = new Set(policy.actors.flatMap((entry) => entry.roles));
    const nobody =
      rule.allow.length > 0 && rule.allow.every((r) => !held.has(r))
        ? `; no entry of the policy's actors gives role ${rule.allow.join(' or ')} yet`
        : '';
    return {
      decision: 'deny',
      rule: ref,
      reason: `${tool.name} ${needed} (rule ${ref.label}); ${actor.id} has ${roles.join(', ')}${nobody}`,
    };
  }
  const over = money === undefined ? undefined : limitExceeded(policy.limits, request.totals, toMinor(money));
  if (over !== undefined && money !== undefined) {
    return { decision: 'deny', rule: ref, reason: `${tool.name} of ${formatAmount(money)} refused: ${over}` };
  }
  // Which running totals sent the call to this rule, said beside it in any approval's reason.
  const totals = totalsWords(rule.when, request.totals);
  if (request.payee !== undefined) {
    const controlled = payeeControls(policy, request.payee, request.now ?? new Date(), {
      tool,
      money,
      rule,
      ref,
      totals,
    });
    if (controlled !== undefined) return controlled;
  }
  if (rule.approval !== undefined) {
    const { approvers, role: approverRole, slackChannel, stepUp, from } = rule.approval;
    const confirmed = stepUp === undefined ? '' : ', each confirming with a passkey';
    const who = needsWords(approvers, approverRole, from);
    return {
      decision: 'approval',
      rule: ref,
      approvers,
      approverRole,
      ...optional('route', slackChannel === undefined ? undefined : { slackChannel }),
      ...optional('stepUp', stepUp),
      ...optional('groups', from),
      reason: `${describeCall(tool, money)} needs ${who}${confirmed} (rule ${ref.label}${totals})`,
    };
  }
  return {
    decision: 'allow',
    rule: ref,
    reason: `${tool.name} allowed for role ${role} (rule ${ref.label})`,
  };
}

/** `; running total to this beneficiary within 24h …`: why a rule with totals applies. */
function totalsWords(when: Condition | undefined, totals: CountedTotals | undefined): string {
  const reached = totalsReached(when, totals);
  return reached.length === 0 ? '' : `; running total ${reached.join('; ')}`;
}

/**
 * The payee controls over the rule's decision: a first payment above its cap is denied; during a
 * cooling-off the payout is denied, or needs one more approver, or each vote confirmed with a
 * passkey (the policy's `payees.coolingOff.action`). Undefined when they leave the rule's decision.
 */
function payeeControls(
  policy: Policy,
  payee: PayeeControlFacts,
  now: Date,
  call: { tool: PolicyTool; money: Money | undefined; rule: Rule; ref: RuleRef; totals: string },
): Decision | undefined {
  const { tool, money, rule, ref } = call;
  const over = firstPaymentOver(policy.payees, payee, money);
  if (over !== undefined) return { decision: 'deny', rule: ref, reason: `${tool.name} denied: ${over}` };
  const end = coolingOffEnd(policy.payees, payee, now);
  const cooling = policy.payees?.coolingOff;
  if (end === undefined || cooling === undefined) return undefined;
  const who = payee.name ?? payee.id;
  const period = `the ${cooling.period} cooling-off period after its bank details were set (${payee.changedAt}), until ${end.toISOString()} (policy payees.coolingOff)`;
  const approval = rule.approval ?? { approvers: 0, role: 'approver' };
  const base = {
    decision: 'approval' as const,
    rule: ref,
    approverRole: approval.role,
    ...optional(
      'route',
      approval.slackChannel === undefined ? undefined : { slackChannel: approval.slackChannel },
    ),
  };
  switch (cooling.action) {
    case 'refuse':
      return { decision: 'deny', rule: ref, reason: `${tool.name} to ${who} is refused during ${period}` };
    case 'extraApprover': {
      // A quorum from groups asks the one more of its first group.
      const groups = oneMore(rule.approval?.from);
      const approvers =
        groups === undefined
          ? Math.min(approval.approvers + 1, 5)
          : groups.reduce((sum, group) => sum + group.approvers, 0);
      const needs = needsWords(approvers, approval.role, groups);
      return {
        ...base,
        approvers,
        ...optional('stepUp', rule.approval?.stepUp),
        ...optional('groups', groups),
        reason: `${describeCall(tool, money)} needs ${needs}: ${who} is in ${period} (rule ${ref.label}${call.totals})`,
      };
    }
    case 'stepUp': {
      const approvers = Math.max(approval.approvers, 1);
      const from = rule.approval?.from;
      const needs = needsWords(approvers, approval.role, from);
      return {
        ...base,
        approvers,
        stepUp: 'passkey',
        ...optional('groups', from),
        reason: `${describeCall(tool, money)} needs ${needs}, each confirming with a passkey: ${who} is in ${period} (rule ${ref.label}${call.totals})`,
      };
    }
  }
}

/** The groups with one more approver in the first (at most 5 in a group). */
function oneMore(groups: readonly QuorumGroup[] | undefined): QuorumGroup[] | undefined {
  if (groups === undefined) return undefined;
  return groups.map((group, i) =>
    i === 0 ? { ...group, approvers: Math.min(group.approvers + 1, 5) } : group,
  );
}
