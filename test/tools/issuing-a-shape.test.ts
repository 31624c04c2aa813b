import { describe, expect, it } from 'vitest';
import { issuingATools } from '../../src/tools/issuing-a/index.js';

// What every tool must satisfy (names, titles, description length, schemas described at every
// depth, configuration codes) is checked in registry-shape.test.ts; here only what is particular
// to issuing family A.

/** The 15 tools of the area and their hints (openWorld is true for all). */
const EXPECTED = {
  create_cardholder_a: { readOnly: false, destructive: false, idempotent: false },
  list_cardholders_a: { readOnly: true, destructive: false, idempotent: true },
  get_cardholder_a: { readOnly: true, destructive: false, idempotent: true },
  // PATCH-like: the same change again changes nothing.
  update_cardholder_a: { readOnly: false, destructive: false, idempotent: true },
  create_card_a: { readOnly: false, destructive: false, idempotent: false },
  assign_card_a: { readOnly: false, destructive: false, idempotent: false },
  activate_card_a: { readOnly: false, destructive: false, idempotent: false },
  reset_pin_a: { readOnly: false, destructive: false, idempotent: false },
  create_wallet_a: { readOnly: false, destructive: false, idempotent: false },
  list_wallets_a: { readOnly: true, destructive: false, idempotent: true },
  get_wallet_history_a: { readOnly: true, destructive: false, idempotent: true },
  get_kyc_a: { readOnly: true, destructive: false, idempotent: true },
  get_rfi_a: { readOnly: true, destructive: false, idempotent: true },
  // A GET with an effect: not read-only, but repeatable.
  respond_rfi_a: { readOnly: false, destructive: false, idempotent: true },
  list_card_transactions_a: { readOnly: true, destructive: false, idempotent: true },
} as const;

const SECRETS: Record<string, string[]> = {
  assign_card_a: ['card_number'],
  activate_card_a: ['activation_code', 'pin'],
  reset_pin_a: ['pin'],
};

const each = issuingATools.map((t) => [t.name, t] as const);

describe('issuing family A tools: shape', () => {
  it('has exactly the 15 tools of the area, once each, in toolset issuing_a', () => {
    expect(Object.keys(EXPECTED)).toHaveLength(15);
    expect(issuingATools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const tool of issuingATools) expect(tool.toolset).toBe('issuing_a');
  });

  it.each(each)('%s: description names the family; input has fields', (_, tool) => {
    expect(tool.description).toMatch(/^Issuing family A/);
    expect(Object.keys(tool.input.shape).length).toBeGreaterThan(0);
  });

  it.each(each)('%s: hints', (name, tool) => {
    expect(tool.hints).toEqual({ ...EXPECTED[name as keyof typeof EXPECTED], openWorld: true });
    // Reads are repeatable; nothing in the area is destructive.
    if (tool.hints.readOnly) expect(tool.hints.idempotent, name).toBe(true);
    expect(tool.hints.destructive, name).toBe(false);
  });

  it('marks the secret fields, which are real input fields, and marks PIN, code and card-number tools as secret input', () => {
    for (const tool of issuingATools) {
      const secrets = [...(tool.secretFields ?? [])].sort();
      expect(secrets, tool.name).toEqual([...(SECRETS[tool.name] ?? [])].sort());
      for (const field of secrets) expect(Object.keys(tool.input.shape), tool.name).toContain(field);
      const takesHeldSecret = ['pin', 'activation_code', 'card_number'].some((f) => secrets.includes(f));
      expect(tool.secretInput === true, tool.name).toBe(takesHeldSecret);
    }
  });

  it('leaves configuration-known fields optional', () => {
    const create = issuingATools.find((t) => t.name === 'create_cardholder_a');
    const parsed = create?.input.safeParse({
      email: 'dana.lee@example.test',
      mobile_number: '81234567',
      date_of_birth: '1992-05-17',
      first_name: 'Dana',
      last_name: 'Lee',
      line1: '1 Raffles Place',
      city: 'Singapore',
      state: 'Singapore',
      country: 'SG',
      postcode: '048616',
    });
    expect(parsed?.success).toBe(true);
  });
});
