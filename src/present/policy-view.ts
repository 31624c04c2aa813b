import { optional } from '../core/optional.js';
import { rolesOf } from '../core/policy/actors.js';
import { matchingRule, ruleRef } from '../core/policy/evaluate.js';
import type { Condition, Policy, Rule } from '../core/policy/schema.js';
import type { Actor } from '../core/policy/types.js';
import type { AnyTool } from '../core/tool.js';

type Access = 'allowed' | 'approval' | 'denied';

interface Case {
  /** The rule's condition in words; `otherwise` for a rule without one. */
  when: string;
  access: Access;
  rule: string;
  approval?: { approvers: number; role: string };
  reason?: string;
}

export interface ToolAccess {
  tool: string;
  /** `depends_on_input`: the first of `cases` whose condition holds decides. */
  access: Access | 'depends_on_input';
  approval?: { approvers: number; role: string };
  reason?: string;
  cases?: Case[];
}

/** Whether this access lets the person call the tool with some input: not denied whatever it is. */
export const mayCall = (access: ToolAccess | undefined): boolean =>
  access !== undefined &&
  access.access !== 'denied' &&
  (access.access !== 'depends_on_input' || (access.cases ?? []).some((c) => c.access !== 'denied'));

/** Why a person may not call it at all: the policy's reason (the last case's, when the input decides). */
export const deniedReason = (access: ToolAccess | undefined): string =>
  access?.reason ?? access?.cases?.at(-1)?.reason ?? 'no role of yours covers it';

export interface PolicyView {
  actor: string;
  roles: string[];
  approvals: string;
  tools: ToolAccess[];
}

const list = (values: readonly string[]): string =>
  values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

/** `50000 USD or 45000 in any other currency`. */
function amounts(atLeast: Readonly<Record<string, number>>): string {
  const entries = Object.entries(atLeast);
  const named = entries.filter(([currency]) => currency !== 'default').map(([c, n]) => `${n} ${c}`);
  const other = entries.find(([currency]) => currency === 'default');
  return list([...named, ...(other === undefined ? [] : [`${other[1]} in any other currency`])]);
}

const SUBJECT_WORDS = {
  requester: 'the requester',
  beneficiary: 'the beneficiary',
  sourceAccount: 'the source account',
  company: 'the company',
} as const;

function describe(condition: Condition): string {
  switch (condition.kind) {
    case 'amount':
      return `amount at least ${amounts(condition.atLeast)}`;
    case 'total':
      return `total of ${SUBJECT_WORDS[condition.of]} within ${condition.within} (this call included) at least ${amounts(condition.atLeast)}`;
    case 'input':
      return `${condition.path} is ${list(condition.in)}`;
    case 'payee':
      return list(
        [
          condition.firstPayment === undefined
            ? ''
            : condition.firstPayment
              ? 'a first payment'
              : 'not a first payment',
          condition.changedWithin === undefined ? '' : `payee changed within ${condition.changedWithin}`,
          condition.verified === undefined
            ? ''
            : condition.verified
              ? 'payee verified'
              : 'payee not verified',
        ].filter((part) => part !== ''),
      );
    case 'time':
      return `outside ${condition.outside}${condition.days === undefined ? '' : ` on ${condition.days.join(', ')}`} (${condition.zone})`;
    case 'all':
      return condition.of.map((c) => `(${describe(c)})`).join(' and ');
    case 'any':
      return condition.of.map((c) => `(${describe(c)})`).join(' or ');
  }
}

/** The rules that may decide a call of `tool`, in order, up to the first without a condition. */
function candidates(policy: Policy, tool: AnyTool): { rule: Rule; label: string }[] {
  const found: { rule: Rule; label: string }[] = [];
  for (const [index, rule] of policy.rules.entries()) {
    // The evaluator's own selector matching, with the condition left out.
    const selected = matchingRule(
      { rules: [{ ...rule, when: undefined }] },
      { name: tool.name, toolset: tool.toolset, hints: tool.hints },
      {},
      undefined,
    );
    if (selected === undefined) continue;
    found.push({ rule, label: ruleRef(rule, index).label });
    if (rule.when === undefined) break;
  }
  return found;
}

function caseOf(rule: Rule, label: string, roles: readonly string[]): Case {
  const when = rule.when === undefined ? 'otherwise' : describe(rule.when);
  if (!rule.allow.some((role) => roles.includes(role))) {
    const needs = rule.allow.length === 0 ? 'allowed to nobody' : `needs role ${list(rule.allow)}`;
    return { when, access: 'denied', rule: label, reason: `${needs} (rule ${label})` };
  }
  if (rule.approval === undefined) return { when, access: 'allowed', rule: label };
  const { approvers, role } = rule.approval;
  return { when, access: 'approval', rule: label, approval: { approvers, role } };
}

function accessOf(policy: Policy, tool: AnyTool, roles: readonly string[]): ToolAccess {
  const cases = candidates(policy, tool).map(({ rule, label }) => caseOf(rule, label, roles));
  // Nothing unconditional at the end: when no condition holds, no rule covers the call.
  if (cases.at(-1)?.when !== 'otherwise')
    cases.push({ when: 'otherwise', access: 'denied', rule: '(none)', reason: 'no rule covers it' });
  const [first] = cases;
  if (first !== undefined && cases.length === 1) {
    const { access, approval, reason } = first;
    return {
      tool: tool.name,
      access,
      ...optional('approval', approval),
      ...optional('reason', reason),
    };
  }
  return { tool: tool.name, access: 'depends_on_input', cases };
}

/**
 * What this actor may do with the tools this server offers, read from the live policy: its roles,
 * and per tool whether a call runs, waits for approvers (how many, which role) or is refused. No
 * other actor and no key digest appears.
 */
export function policyView(policy: Policy, actor: Actor, tools: readonly AnyTool[]): PolicyView {
  const roles = rolesOf(policy, actor);
  return {
    actor: actor.id,
    roles,
    approvals:
      roles.length === 0
        ? 'This actor has no role in the policy: every call is refused.'
        : 'A call that needs approval returns pending_approval with an approvalId; people holding the approver role decide, in Slack or with the bankops CLI. No MCP tool approves: follow the request with get_approval.',
    tools: tools.map((tool) => accessOf(policy, tool, roles)),
  };
}
