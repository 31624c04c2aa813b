import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ServeMetrics } from '../../src/app/metrics/metrics.js';

/** docs/operations.md lists exactly the metrics serve exposes, and its alert rules name only those. */

const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');

/** `| \`name\` | type | …` rows of the doc's tables. */
const documented = new Map(
  [...DOC.matchAll(/^\| `([a-z0-9_]+)` \| (counter|gauge|histogram|summary) \|/gm)].map((m) => [m[1], m[2]]),
);

interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string; description: string };
}

describe('docs/operations.md', () => {
  it('lists every metric of the registry, with its type, and no other', async () => {
    const metrics = new ServeMetrics();
    const exposed = new Map((await metrics.registryJson()).map((m) => [m.name, m.type] as const));
    expect([...documented.keys()].sort()).toEqual([...exposed.keys()].sort());
    for (const [name, type] of exposed) expect(documented.get(name), name).toBe(type);
  });

  it('holds five alert rules whose expressions name documented metrics only', () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(DOC)?.[1];
    expect(block).toBeDefined();
    const { groups } = parse(block ?? '') as { groups: { name: string; rules: Rule[] }[] };
    const rules = groups.flatMap((g) => g.rules);
    expect(rules).toHaveLength(5);
    expect(new Set(rules.map((r) => r.alert)).size).toBe(5);
    for (const rule of rules) {
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(['page', 'ticket'], rule.alert).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length, rule.alert).toBeGreaterThan(10);
      const named = [...rule.expr.matchAll(/\b(?:bankops|process|nodejs)_[a-z_]+/g)].map((m) =>
        m[0].replace(/_(bucket|count|sum)$/, ''),
      );
      expect(named.length, rule.alert).toBeGreaterThan(0);
      for (const metric of named) expect(documented.has(metric), `${rule.alert}: ${metric}`).toBe(true);
    }
  });
});
