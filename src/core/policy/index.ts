export { canApprove, checkApprover, isKnownActor, personOf, rolesOf } from './actors.js';
export { ConditionError, conditionHolds, moneyOf, valueAt } from './conditions.js';
export { defaultPolicyPath } from './default-path.js';
export { isPolicyError, PolicyError } from './errors.js';
export { weakerForLarger } from './escalation.js';
export { evaluate, matchingRule, ruleRef } from './evaluate.js';
export { resolveMcpKey, sha256Hex } from './mcp-keys.js';
export {
  formatIssues,
  formatPath,
  parsePolicyText,
  parsePolicyValue,
  readPolicyFile,
  readPolicyText,
} from './parse.js';
export { unlistedMcpKeys } from './references.js';
export { DEFAULT_REMINDER, reminderMs, reminderOfRule } from './reminder.js';
export type { ActorEntry, Condition, McpKeyEntry, Policy, Rule } from './schema.js';
export { PolicySchema } from './schema.js';
export { passkeyUrlProblem, stepUpProblems } from './step-up.js';
export type { PolicyChange, PolicyStoreOptions, ReloadResult } from './store.js';
export { PolicyStore, policyPath } from './store.js';
export { unknownToolNames } from './tool-names.js';
export type { Actor, Decision, EvaluationRequest, Money, PolicyTool, RuleRef, Toolset } from './types.js';
export { TOOLSETS } from './types.js';
