import { optional } from '../optional.js';
import { rolesOf } from './actors.js';
import { ConditionError, conditionHolds, moneyOf } from './conditions.js';
import type { Policy, Rule } from './schema.js';
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
): { rule: Rule; ref: RuleRef } | undefined {
  for (const [index, rule] of policy.rules.entries()) {
    if (!selects(rule, tool)) continue;
    if (rule.when !== undefined && !conditionHolds(rule.when, { input, money })) continue;
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

  let money: Money | undefined;
  let match: ReturnType<typeof matchingRule>;
  try {
    // Computed once up front so every rule sees the same amount; a tool that cannot tell is denied.
    money = moneyOf(tool, input);
    match = matchingRule(policy, tool, input, money);
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
    return {
      decision: 'deny',
      rule: ref,
      reason: `${tool.name} ${needed} (rule ${ref.label}); ${actor.id} has ${roles.join(', ')}`,
    };
  }
  if (rule.approval !== undefined) {
    const { approvers, role: approverRole, slackChannel, stepUp } = rule.approval;
    const confirmed = stepUp === undefined ? '' : ', each confirming with a passkey';
    return {
      decision: 'approval',
      rule: ref,
      approvers,
      approverRole,
      ...optional('route', slackChannel === undefined ? undefined : { slackChannel }),
      ...optional('stepUp', stepUp),
      reason: `${describeCall(tool, money)} needs ${plural(approvers, 'approver')} with role ${approverRole}${confirmed} (rule ${ref.label})`,
    };
  }
  return {
    decision: 'allow',
    rule: ref,
    reason: `${tool.name} allowed for role ${role} (rule ${ref.label})`,
  };
}
