import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyTool } from '../../src/core/tool.js';
import { notificationTools } from '../../src/tools/notifications/index.js';

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
  list_webhook_events: { readOnly: true, destructive: false, idempotent: true },
  create_subscription: { readOnly: false, destructive: false, idempotent: false },
  list_subscriptions: { readOnly: true, destructive: false, idempotent: true },
  update_subscription: { readOnly: false, destructive: false, idempotent: true },
  delete_subscription: { readOnly: false, destructive: true, idempotent: true },
} as const;

describe('notification tool shapes', () => {
  it('exports exactly the notification tools, in the notifications toolset', () => {
    expect(notificationTools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const tool of notificationTools) expect(tool.toolset, tool.name).toBe('notifications');
  });

  it('finds fields without a description (the check itself)', () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.string() }).describe('b') });
    expect(undescribed(z.toJSONSchema(schema))).toEqual(['a', 'b.c']);
  });

  it.each(notificationTools.map((t): [string, AnyTool] => [t.name, t]))('%s is well formed', (name, tool) => {
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
    // No notification tool takes a PIN or code, and none moves money.
    expect(tool.slack).not.toBe(false);
    expect(tool.money).toBeUndefined();
  });

  it('fills configuration codes and the acting user instead of demanding them', () => {
    for (const tool of notificationTools) {
      const required = z.toJSONSchema(tool.input, { io: 'input' }).required ?? [];
      for (const field of [
        'program_code',
        'company_code',
        'agent_code',
        'subagent_code',
        'created_by',
        'updated_by',
      ])
        expect(required, tool.name).not.toContain(field);
    }
  });

  it('marks the subscription API key secret wherever it appears', () => {
    for (const tool of notificationTools) {
      const fields = [...Object.keys(tool.input.shape), ...Object.keys(tool.output.shape)];
      if (fields.includes('x_api_key') || tool.name === 'list_subscriptions')
        expect(tool.secretFields, tool.name).toContain('x_api_key');
    }
  });
});
