import { evaluate } from '../policy/evaluate.js';
import type { Policy } from '../policy/schema.js';
import type { Actor, PolicyTool } from '../policy/types.js';

/**
 * Alerts are bankops's own, not operations of the service, so they are not tools; the policy
 * decides on them as on the banking tools these names stand for: listing is a read (viewers under
 * the shipped policy), adding and removing are writes (operators). A rule may select them by
 * `toolsets: [banking]` and `readOnly`; the names are not in the registry, so `tools:` cannot name them.
 */
export const ALERT_ACTIONS = {
  add: {
    name: 'create_balance_alert',
    toolset: 'banking',
    hints: { readOnly: false, destructive: false, idempotent: false },
  },
  list: {
    name: 'list_balance_alerts',
    toolset: 'banking',
    hints: { readOnly: true, destructive: false, idempotent: true },
  },
  remove: {
    name: 'delete_balance_alert',
    toolset: 'banking',
    hints: { readOnly: false, destructive: false, idempotent: true },
  },
} as const satisfies Record<string, PolicyTool>;

export type AlertAction = keyof typeof ALERT_ACTIONS;

/** Undefined when the actor may; else why not, in words a person can act on. */
export function refusalOf(
  policy: Policy,
  action: AlertAction,
  actor: Actor,
  input: unknown,
): string | undefined {
  const decision = evaluate(policy, { tool: ALERT_ACTIONS[action], input, actor });
  switch (decision.decision) {
    case 'allow':
      return undefined;
    case 'deny':
      return decision.reason;
    case 'approval':
      return `the policy's rule ${decision.rule.label} asks for approval of ${ALERT_ACTIONS[action].name}, which alerts cannot wait for: an admin changes the rule so it leaves alerts out (docs/policy.md)`;
  }
}
