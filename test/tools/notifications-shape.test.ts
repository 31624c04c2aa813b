import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../../src/core/tool.js';
import { notificationTools } from '../../src/tools/notifications/index.js';

// What every tool must satisfy (names, descriptions, schemas, configuration codes and the acting
// user left optional) is checked in registry-shape.test.ts; here only what is particular to the
// notification tools.

describe('notification tool shapes', () => {
  // Names and hints are in the tool snapshots (test/mcp/__toolsnaps__); here what they do not show.
  it.each(notificationTools.map((t): [string, AnyTool] => [t.name, t]))(
    '%s: toolset, Slack, money',
    (name, tool) => {
      expect(tool.toolset, name).toBe('notifications');
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
