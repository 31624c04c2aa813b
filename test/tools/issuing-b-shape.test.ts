import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCardholderB } from '../../src/tools/issuing-b/cardholders.js';
import { updateCardStatusB } from '../../src/tools/issuing-b/cards.js';
import { issuingBTools } from '../../src/tools/issuing-b/index.js';
import { transferWalletFunds } from '../../src/tools/issuing-b/transfer.js';

const NAMES = [
  'create_cardholder_b',
  'get_cardholder_b',
  'update_cardholder_b',
  'activate_cardholder_b',
  'create_wallet_b',
  'list_wallets_b',
  'get_wallet_history_b',
  'transfer_wallet_funds',
  'create_card_b',
  'assign_card_b',
  'list_cards_b',
  'activate_card_b',
  'get_card_details_b',
  'get_card_details_link_b',
  'get_card_configuration_b',
  'update_card_configuration_b',
  'update_card_status_b',
  'get_set_pin_link_b',
  'get_reset_pin_link_b',
  'get_change_pin_link_b',
  'enroll_3ds_b',
  'get_3ds_b',
  'update_3ds_b',
  'unenroll_3ds_b',
  'get_spend_limits_b',
  'update_spend_limit_b',
  'get_kyc_b',
  'get_rfi_b',
  'respond_rfi_b',
];

const READ_ONLY = [
  'get_cardholder_b',
  'list_wallets_b',
  'get_wallet_history_b',
  'list_cards_b',
  'get_card_details_b',
  'get_card_details_link_b',
  'get_card_configuration_b',
  'get_3ds_b',
  'get_spend_limits_b',
  'get_kyc_b',
  'get_rfi_b',
];

const DESTRUCTIVE = ['update_card_status_b', 'unenroll_3ds_b'];

/** Tools whose repeat creates something again (or hands out a new working link). */
const NOT_IDEMPOTENT = [
  'create_cardholder_b',
  'create_wallet_b',
  'transfer_wallet_funds',
  'create_card_b',
  'assign_card_b',
  'get_set_pin_link_b',
  'get_reset_pin_link_b',
  'get_change_pin_link_b',
];

/** Secret fields, input or output, per tool. */
const SECRETS: Record<string, string[]> = {
  assign_card_b: ['code'],
  get_card_details_link_b: ['url'],
  get_set_pin_link_b: ['set_pin_url'],
  get_reset_pin_link_b: ['set_pin_url'],
  get_change_pin_link_b: ['set_pin_url'],
};

const jsonProperties = (schema: z.ZodType): Record<string, { description?: string }> => {
  const json = z.toJSONSchema(schema) as {
    type?: string;
    properties?: Record<string, { description?: string }>;
  };
  expect(json.type).toBe('object');
  return json.properties ?? {};
};

const byName = new Map(issuingBTools.map((t) => [t.name, t]));
const tool = (name: string) => {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
const each = issuingBTools.map((t) => [t.name, t] as const);

describe('issuing family B tools: shape', () => {
  it('has exactly the 29 tools of the area, once each, in toolset issuing_b', () => {
    expect(issuingBTools.map((t) => t.name).sort()).toEqual([...NAMES].sort());
    expect(new Set(issuingBTools.map((t) => t.name)).size).toBe(issuingBTools.length);
    for (const t of issuingBTools) expect(t.toolset).toBe('issuing_b');
  });

  it.each(each)('%s: name, title, description', (_, t) => {
    expect(t.name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(t.title.length).toBeGreaterThan(0);
    expect(t.description).toMatch(/^Issuing family B \(programs on \/issuing\/api\/v1/);
    expect(t.description.length).toBeLessThanOrEqual(400);
  });

  it.each(each)('%s: every input field is described', (_, t) => {
    expect(t.input).toBeInstanceOf(z.ZodObject);
    const fields = Object.entries(t.input.shape);
    expect(fields.length).toBeGreaterThan(0);
    for (const [name, field] of fields) {
      // Front ends read the description from the field itself; MCP from the JSON schema.
      expect((field as z.ZodType).description, `${t.name}.${name}`).toMatch(/\S/);
      expect(jsonProperties(t.input)[name]?.description, `${t.name}.${name} (JSON)`).toMatch(/\S/);
    }
  });

  it.each(each)('%s: output is an object schema', (_, t) => {
    expect(t.output).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(jsonProperties(t.output)).length).toBeGreaterThan(0);
  });

  it('hints: reads are read-only and idempotent; permanent blocks and 3DS removal are destructive', () => {
    for (const t of issuingBTools) {
      expect(t.hints.readOnly, t.name).toBe(READ_ONLY.includes(t.name));
      expect(t.hints.destructive, t.name).toBe(DESTRUCTIVE.includes(t.name));
      expect(t.hints.idempotent, t.name).toBe(!NOT_IDEMPOTENT.includes(t.name));
      expect(t.hints.openWorld, t.name).toBe(true);
    }
    // A GET with an effect: not read-only.
    expect(tool('respond_rfi_b').hints.readOnly).toBe(false);
  });

  it('secret fields are real input or output fields; only the assignment-code tool stays out of Slack', () => {
    for (const t of issuingBTools) {
      const secrets = [...(t.secretFields ?? [])].sort();
      expect(secrets, t.name).toEqual([...(SECRETS[t.name] ?? [])].sort());
      const fields = [...Object.keys(t.input.shape), ...Object.keys(t.output.shape)];
      for (const field of secrets) expect(fields, t.name).toContain(field);
      expect(t.slack === false, t.name).toBe(t.name === 'assign_card_b');
    }
  });

  it('fills configuration-known agent codes: they are optional in create_cardholder_b', () => {
    const shape = createCardholderB.input.shape;
    expect(shape.agentCode.safeParse(undefined).success).toBe(true);
    expect(shape.subagentCode.safeParse(undefined).success).toBe(true);
  });

  it('transfer_wallet_funds reports its amount in the given currency, USD by default', () => {
    const transfer = transferWalletFunds;
    const base = {
      cardholderId: 'chb_demo_alice',
      email: 'x@example.test',
      amount: 12.5,
      description: 'lunch',
    };
    expect(transfer.money?.(transfer.input.parse(base))).toEqual({ amount: 12.5, currency: 'USD' });
    expect(transfer.money?.(transfer.input.parse({ ...base, currency: 'EUR' }))).toEqual({
      amount: 12.5,
      currency: 'EUR',
    });
    expect(tool('update_spend_limit_b').money).toBeUndefined();
  });

  it('update_card_status_b takes the status as `status`, the field the default policy reads', () => {
    const status = updateCardStatusB.input.shape.status;
    expect(status.safeParse('STOLEN').success).toBe(true);
    expect(status.safeParse('stolen').success).toBe(false);
    expect(tool('update_card_status_b').description).toMatch(/PERMANENT/);
  });
});
