import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyTool } from '../../src/core/tool.js';
import { bankingTools } from '../../src/tools/banking/index.js';
import { schemaProperties } from '../helpers/schema.js';

// What every tool must satisfy (names, descriptions, schemas, configuration codes) is checked in
// registry-shape.test.ts; here only what is particular to the banking tools.

describe('banking tool shapes', () => {
  // Names and hints are in the tool snapshots (test/mcp/__toolsnaps__); here what they do not show.
  it.each(bankingTools.map((t): [string, AnyTool] => [t.name, t]))(
    '%s: toolset, Slack, money',
    (name, tool) => {
      expect(tool.toolset, name).toBe('banking');
      // No banking tool here takes a PIN or code, and none moves money (create_* money tools live elsewhere).
      expect(tool.secretInput).toBeUndefined();
      expect(tool.money).toBeUndefined();
    },
  );

  it('never exposes the bearer token from check_credentials', () => {
    const tool = bankingTools.find((t) => t.name === 'check_credentials');
    if (tool === undefined) throw new Error('no tool check_credentials');
    expect(Object.keys(tool.output.shape)).not.toContain('token');
    // Nor anywhere deeper in its output.
    expect(schemaProperties(z.toJSONSchema(tool.output)).map((p) => p.key)).not.toContain('token');
  });
});
