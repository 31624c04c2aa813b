import type { Policy } from './schema.js';

/**
 * Rule entries naming a tool the registry does not have, as `rules[1].tools[0]: ...` lines.
 * The schema cannot know the registry; a misspelt name would silently make its rule dead, so the
 * caller (start-up, `bankops policy check`) reports these.
 */
export function unknownToolNames(policy: Pick<Policy, 'rules'>, known: Iterable<string>): string[] {
  const names = new Set(known);
  return policy.rules.flatMap((rule, i) =>
    (rule.tools ?? []).flatMap((tool, j) =>
      names.has(tool) ? [] : [`rules[${i}].tools[${j}]: no tool named "${tool}"`],
    ),
  );
}
