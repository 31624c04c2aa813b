import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** The shipped default policy, with passkey step-up on the payout rules (and `extra` actors). */
export function stepUpPolicyYaml(extraActors: unknown[] = []): string {
  const policy = parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'policy', 'default.yaml'), 'utf8'),
  ) as {
    actors: unknown[];
    rules: { name?: string; approval?: Record<string, unknown> }[];
  };
  policy.actors.push(...extraActors);
  for (const rule of policy.rules) {
    if ((rule.name === 'payouts' || rule.name === 'large-payouts') && rule.approval !== undefined)
      rule.approval.stepUp = 'passkey';
  }
  return stringify(policy);
}

/** The same policy text with passkey step-up on its payout rules. */
export function withStepUp(yaml: string): string {
  const policy = parse(yaml) as { rules: { name?: string; approval?: Record<string, unknown> }[] };
  for (const rule of policy.rules) {
    if ((rule.name === 'payouts' || rule.name === 'large-payouts') && rule.approval !== undefined)
      rule.approval.stepUp = 'passkey';
  }
  return stringify(policy);
}
