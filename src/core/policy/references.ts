import type { z } from 'zod';
import type { Policy } from './schema.js';

/**
 * Cross-entry rules a per-field schema cannot express: names that must be unique, and (when
 * `roles` is declared) role names that must be declared. Each issue names the offending path.
 * An actor entry naming an MCP key that `mcpKeys` does not list is not an error (see
 * `unlistedMcpKeys`): deleting a key's line must revoke it, not make the whole file fail to load.
 */
export function checkReferences(policy: Policy, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message });

  const keyNames = new Set<string>();
  const digests = new Set<string>();
  for (const [i, key] of policy.mcpKeys.entries()) {
    if (keyNames.has(key.name)) issue(['mcpKeys', i, 'name'], `duplicate key name "${key.name}"`);
    if (digests.has(key.sha256)) issue(['mcpKeys', i, 'sha256'], 'same digest as an earlier key');
    keyNames.add(key.name);
    digests.add(key.sha256);
  }

  // One identity, one person: two entries for the same identity may not name different people.
  const personOfIdentity = new Map<string, string>();
  for (const [i, entry] of policy.actors.entries()) {
    if (entry.person === undefined) continue;
    const identity = JSON.stringify(entry.match);
    const earlier = personOfIdentity.get(identity);
    if (earlier !== undefined && earlier !== entry.person)
      issue(['actors', i, 'person'], `this identity is already the person "${earlier}"`);
    personOfIdentity.set(identity, entry.person);
  }

  const ruleNames = new Set<string>();
  for (const [i, rule] of policy.rules.entries()) {
    if (rule.name === undefined) continue;
    if (ruleNames.has(rule.name)) issue(['rules', i, 'name'], `duplicate rule name "${rule.name}"`);
    ruleNames.add(rule.name);
  }

  if (policy.roles === undefined) return;
  const declared = new Set(policy.roles);
  const checkRole = (role: string, path: (string | number)[]) => {
    if (!declared.has(role)) issue(path, `role "${role}" is not declared in roles`);
  };
  for (const [i, entry] of policy.actors.entries()) {
    for (const [j, role] of entry.roles.entries()) checkRole(role, ['actors', i, 'roles', j]);
  }
  for (const [i, rule] of policy.rules.entries()) {
    for (const [j, role] of rule.allow.entries()) checkRole(role, ['rules', i, 'allow', j]);
    const from = rule.approval?.from;
    if (from !== undefined) {
      for (const [j, group] of from.entries())
        checkRole(group.role, ['rules', i, 'approval', 'from', j, 'role']);
    } else if (rule.approval !== undefined) checkRole(rule.approval.role, ['rules', i, 'approval', 'role']);
  }
  if (policy.breakGlass !== undefined) {
    checkRole(policy.breakGlass.role, ['breakGlass', 'role']);
    checkRole(policy.breakGlass.review.role, ['breakGlass', 'review', 'role']);
  }
}

/**
 * Actor entries naming an MCP key that `mcpKeys` does not list, as `actors[2].match.mcpKey: ...`
 * lines. They match nothing (a revoked key, or a misspelt name); the caller warns about them.
 */
export function unlistedMcpKeys(policy: Pick<Policy, 'actors' | 'mcpKeys'>): string[] {
  const listed = new Set(policy.mcpKeys.map((key) => key.name));
  return policy.actors.flatMap((entry, i) => {
    const name = entry.match.mcpKey;
    return name === undefined || listed.has(name)
      ? []
      : [`actors[${i}].match.mcpKey: no entry named "${name}" in mcpKeys, so it matches nothing`];
  });
}
