import { optional } from '../optional.js';
import { rolesOf } from './actors.js';
import type { Policy } from './schema.js';
import type { Actor, Decision, RuleRef } from './types.js';

/** The tool that proposes a policy change (src/tools/admin/propose-policy.ts). */
export const PROPOSE_POLICY = 'propose_policy';

/** Not a rule of the list: the `governance:` section decides a change, whatever the rules say. */
const GOVERNANCE_RULE: RuleRef = { index: -1, name: undefined, label: 'governance' };

/**
 * Who may propose a policy change and who approves it (docs/policy.md "Governance"): the rules never
 * decide it, so no rule can open or close the way to change them. Without governance the file
 * decides and there is nothing to propose; under it a holder of the governing role proposes, and
 * `approvers` other holders approve (never the proposer), each with a passkey when it says so.
 */
export function changeDecision(policy: Policy, actor: Actor): Decision {
  const governance = policy.governance;
  if (governance === undefined)
    return {
      decision: 'deny',
      reason: `${PROPOSE_POLICY} needs governance: the policy in force has no governance: section, so its file decides; edit the file (BANKOPS_POLICY) as before, or add governance: to it to make changes need approvers (docs/policy.md "Governance")`,
    };
  const roles = rolesOf(policy, actor);
  if (!roles.includes(governance.role))
    return {
      decision: 'deny',
      rule: GOVERNANCE_RULE,
      reason: `proposing a policy change needs role ${governance.role} (governance); ${actor.id} has ${roles.join(', ') || 'no role'}`,
    };
  const confirmed = governance.stepUp === undefined ? '' : ', each confirming with a passkey';
  return {
    decision: 'approval',
    rule: GOVERNANCE_RULE,
    approvers: governance.approvers,
    approverRole: governance.role,
    ...optional('stepUp', governance.stepUp),
    reason: `a policy change needs ${governance.approvers} approvers with role ${governance.role}${confirmed}, never its proposer (governance)`,
  };
}
