import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../../src/core/tool.js';
import { notificationTools } from '../../src/tools/notifications/index.js';

// What every tool must satisfy (names, descriptions, schemas, configuration codes and the acting
// user left optional) is checked in registry-shape.test.ts; here only what is particular to the
// notification tools.

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

  it.each(notificationTools.map((t): [string, AnyTool] => [t.name, t]))(
    '%s: hints, Slack, money',
    (name, tool) => {
      expect(tool.hints).toEqual({ ...EXPECTED[name as keyof typeof EXPECTED], openWorld: true });
      // No notification tool takes a PIN or code, and none moves money.
      expect(tool.secretInput).toBeUndefined();
      expect(tool.money).toBeUndefined();
    },
  );

  it('marks the subscription API key secret wherever it appears', () => {
    for (const tool of notificationTools) {
      const fields = [...Object.keys(tool.input.shape), ...Object.keys(tool.output.shape)];
      if (fields.includes('x_api_key') || tool.name === 'list_subscriptions')
        expect(tool.secretFields, tool.name).toContain('x_api_key');
    }
  });
});
