import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyTool } from '../../src/core/tool.js';
import { bankingTools } from '../../src/tools/banking/index.js';

/** Paths of object properties (at any depth) whose JSON Schema carries no description. */
function undescribed(schema: unknown, at = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as { properties?: Record<string, { description?: unknown }>; items?: unknown };
  const own = Object.entries(node.properties ?? {}).flatMap(([key, property]) => [
    ...(typeof property.description === 'string' && property.description.trim() !== ''
      ? []
      : [`${at}${key}`]),
    ...undescribed(property, `${at}${key}.`),
  ]);
  return [...own, ...undescribed(node.items, at)];
}

const EXPECTED = {
  check_credentials: { readOnly: true, destructive: false, idempotent: true },
  get_user: { readOnly: true, destructive: false, idempotent: true },
  list_accounts: { readOnly: true, destructive: false, idempotent: true },
  get_account: { readOnly: true, destructive: false, idempotent: true },
  get_balances: { readOnly: true, destructive: false, idempotent: true },
  get_account_balance: { readOnly: true, destructive: false, idempotent: true },
  list_beneficiary_options: { readOnly: true, destructive: false, idempotent: true },
  get_beneficiary_schema: { readOnly: true, destructive: false, idempotent: true },
  create_beneficiary: { readOnly: false, destructive: false, idempotent: false },
  quote_conversion: { readOnly: true, destructive: false, idempotent: false },
  get_conversion: { readOnly: true, destructive: false, idempotent: true },
  quote_payout: { readOnly: true, destructive: false, idempotent: false },
  get_payout: { readOnly: true, destructive: false, idempotent: true },
} as const;

describe('banking tool shapes', () => {
  it('exports exactly the banking tools, in the banking toolset', () => {
    expect(bankingTools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const tool of bankingTools) expect(tool.toolset, tool.name).toBe('banking');
  });

  it('finds fields without a description (the check itself)', () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.string() }).describe('b') });
    expect(undescribed(z.toJSONSchema(schema))).toEqual(['a', 'b.c']);
  });

  it.each(bankingTools.map((t): [string, AnyTool] => [t.name, t]))('%s is well formed', (name, tool) => {
    expect(name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(tool.title.trim()).not.toBe('');
    expect(tool.description.length).toBeGreaterThan(40);
    expect(tool.description.length).toBeLessThanOrEqual(400);

    expect(tool.input).toBeInstanceOf(z.ZodObject);
    const input = z.toJSONSchema(tool.input, { io: 'input' });
    expect(input.type).toBe('object');
    expect(undescribed(input)).toEqual([]);
    // Front ends read the top-level field's own description (zod keeps it on the wrapper it was set on).
    for (const [key, field] of Object.entries(tool.input.shape))
      expect(z.globalRegistry.get(field)?.description, key).toBeTruthy();

    expect(tool.output).toBeInstanceOf(z.ZodObject);
    expect(z.toJSONSchema(tool.output).type).toBe('object');

    expect(tool.hints).toEqual({ ...EXPECTED[name as keyof typeof EXPECTED], openWorld: true });
    // No banking tool here takes a PIN or code, and none moves money (create_* money tools live elsewhere).
    expect(tool.slack).not.toBe(false);
    expect(tool.money).toBeUndefined();
  });

  it('fills configuration codes instead of demanding them', () => {
    for (const tool of bankingTools) {
      const required = z.toJSONSchema(tool.input, { io: 'input' }).required ?? [];
      expect(required, tool.name).not.toContain('companyCode');
    }
  });

  it('never exposes the bearer token from check_credentials', () => {
    const tool = bankingTools.find((t) => t.name === 'check_credentials');
    expect(Object.keys(tool?.output.shape ?? {})).not.toContain('token');
  });
});
