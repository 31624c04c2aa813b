import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyTool } from '../../src/core/tool.js';
import { bankingTools } from '../../src/tools/banking/index.js';
import { schemaProperties } from '../helpers/schema.js';

// What every tool must satisfy (names, descriptions, schemas, configuration codes) is checked in
// registry-shape.test.ts; here only what is particular to the banking tools.

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

  it.each(bankingTools.map((t): [string, AnyTool] => [t.name, t]))(
    '%s: hints, Slack, money',
    (name, tool) => {
      expect(tool.hints).toEqual({ ...EXPECTED[name as keyof typeof EXPECTED], openWorld: true });
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
