import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputJsonSchema, outputJsonSchema } from '../../src/core/registry.js';
import { issuingATools } from '../../src/tools/issuing-a/index.js';

const NAMES = [
  'create_cardholder_a',
  'list_cardholders_a',
  'get_cardholder_a',
  'update_cardholder_a',
  'create_card_a',
  'assign_card_a',
  'activate_card_a',
  'reset_pin_a',
  'create_wallet_a',
  'list_wallets_a',
  'get_wallet_history_a',
  'get_kyc_a',
  'get_rfi_a',
  'respond_rfi_a',
  'list_card_transactions_a',
];

const READ_ONLY = [
  'list_cardholders_a',
  'get_cardholder_a',
  'list_wallets_a',
  'get_wallet_history_a',
  'get_kyc_a',
  'get_rfi_a',
  'list_card_transactions_a',
];

const SECRETS: Record<string, string[]> = {
  assign_card_a: ['card_number'],
  activate_card_a: ['activation_code', 'pin'],
  reset_pin_a: ['pin'],
};

/** The properties of a JSON schema as the registry derives it for MCP and the CLI; it must be an object. */
const jsonProperties = (json: Record<string, unknown>): Record<string, { description?: string }> => {
  expect(json.type).toBe('object');
  return (json.properties ?? {}) as Record<string, { description?: string }>;
};

describe('issuing family A tools: shape', () => {
  it('has exactly the 15 tools of the area, once each, in toolset issuing_a', () => {
    expect(issuingATools.map((t) => t.name).sort()).toEqual([...NAMES].sort());
    for (const tool of issuingATools) expect(tool.toolset).toBe('issuing_a');
  });

  it.each(issuingATools.map((t) => [t.name, t] as const))('%s: name, title, description', (_, tool) => {
    expect(tool.name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(tool.title.length).toBeGreaterThan(0);
    expect(tool.description).toMatch(/^Issuing family A/);
    expect(tool.description.length).toBeLessThanOrEqual(400);
  });

  it.each(issuingATools.map((t) => [t.name, t] as const))('%s: every input field is described', (_, tool) => {
    expect(tool.input).toBeInstanceOf(z.ZodObject);
    const fields = Object.entries(tool.input.shape);
    expect(fields.length).toBeGreaterThan(0);
    for (const [name, field] of fields) {
      // Front ends read the description from the field itself; MCP from the JSON schema.
      expect(z.globalRegistry.get(field)?.description, `${tool.name}.${name}`).toMatch(/\S/);
      expect(jsonProperties(inputJsonSchema(tool))[name]?.description, `${tool.name}.${name} (JSON)`).toMatch(
        /\S/,
      );
    }
  });

  it.each(issuingATools.map((t) => [t.name, t] as const))('%s: output is an object schema', (_, tool) => {
    expect(tool.output).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(jsonProperties(outputJsonSchema(tool))).length).toBeGreaterThan(0);
  });

  it('marks reads read-only and idempotent, and nothing else read-only', () => {
    for (const tool of issuingATools) {
      expect(tool.hints.readOnly, tool.name).toBe(READ_ONLY.includes(tool.name));
      if (tool.hints.readOnly) expect(tool.hints.idempotent, tool.name).toBe(true);
      expect(tool.hints.destructive, tool.name).toBe(false);
      expect(tool.hints.openWorld, tool.name).toBe(true);
    }
    const byName = new Map(issuingATools.map((t) => [t.name, t]));
    // respond_rfi_a is a GET with an effect; update is PATCH-like; creates are not repeatable.
    expect(byName.get('respond_rfi_a')?.hints).toMatchObject({ readOnly: false, idempotent: true });
    expect(byName.get('update_cardholder_a')?.hints).toMatchObject({ readOnly: false, idempotent: true });
    expect(byName.get('create_card_a')?.hints.idempotent).toBe(false);
  });

  it('marks the secret fields, which are real input fields, and keeps PIN tools out of Slack', () => {
    for (const tool of issuingATools) {
      const secrets = [...(tool.secretFields ?? [])].sort();
      expect(secrets, tool.name).toEqual([...(SECRETS[tool.name] ?? [])].sort());
      for (const field of secrets) expect(Object.keys(tool.input.shape), tool.name).toContain(field);
      const takesPinOrCode = secrets.includes('pin') || secrets.includes('activation_code');
      expect(tool.slack === false, tool.name).toBe(takesPinOrCode);
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
