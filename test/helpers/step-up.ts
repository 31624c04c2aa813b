import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { TestCore } from './core.js';
import { serviceEnv } from './sandbox.js';

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

/** The CLI's environment on a test core with passkey pages at `publicUrl`, as the admin. */
export function stepUpCliEnv(c: TestCore, publicUrl: string): Record<string, string> {
  return {
    ...serviceEnv(c.sandbox.url, c.sandbox.credentials),
    BANKOPS_DB: c.dbPath,
    BANKOPS_POLICY: join(dirname(c.dbPath), 'policy.yaml'),
    BANKOPS_PUBLIC_URL: publicUrl,
    BANKOPS_ACTOR: 'admin',
  };
}
