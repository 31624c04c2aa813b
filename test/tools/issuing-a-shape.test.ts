import { describe, expect, it } from 'vitest';
import { issuingATools } from '../../src/tools/issuing-a/index.js';

// What every tool must satisfy (names, titles, description length, schemas described at every
// depth, configuration codes) is checked in registry-shape.test.ts; here only what is particular
// to issuing family A.

const SECRETS: Record<string, string[]> = {
  assign_card_a: ['card_number'],
  activate_card_a: ['activation_code', 'pin'],
  reset_pin_a: ['pin'],
};

const each = issuingATools.map((t) => [t.name, t] as const);

describe('issuing family A tools: shape', () => {
  // Names and hints are in the tool snapshots (test/mcp/__toolsnaps__); here the area's rules.
  it('puts every tool of the area in toolset issuing_a', () => {
    for (const tool of issuingATools) expect(tool.toolset).toBe('issuing_a');
  });

  it.each(each)('%s: description names the family; input has fields', (_, tool) => {
    expect(tool.description).toMatch(/^Issuing family A/);
    expect(Object.keys(tool.input.shape).length).toBeGreaterThan(0);
  });

  it.each(each)('%s: hints follow the area’s rules', (name, tool) => {
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
