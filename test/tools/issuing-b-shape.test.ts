import { describe, expect, it } from 'vitest';
import { createCardholderB } from '../../src/tools/issuing-b/cardholders.js';
import { updateCardStatusB } from '../../src/tools/issuing-b/cards.js';
import { issuingBTools } from '../../src/tools/issuing-b/index.js';
import { transferWalletFunds } from '../../src/tools/issuing-b/transfer.js';

// What every tool must satisfy (names, titles, description length, schemas described at every
// depth, configuration codes, unique names) is checked in registry-shape.test.ts; here only what is
// particular to issuing family B.

/** Secret fields, input or output, per tool. */
const SECRETS: Record<string, string[]> = {
  assign_card_b: ['code'],
  get_card_details_link_b: ['url'],
  get_set_pin_link_b: ['set_pin_url'],
  get_reset_pin_link_b: ['set_pin_url'],
  get_change_pin_link_b: ['set_pin_url'],
};

const byName = new Map(issuingBTools.map((t) => [t.name, t]));
const tool = (name: string) => {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
const each = issuingBTools.map((t) => [t.name, t] as const);

describe('issuing family B tools: shape', () => {
  // Names and hints are in the tool snapshots (test/mcp/__toolsnaps__); here the area's rules.
  it('puts every tool of the area in toolset issuing_b', () => {
    for (const t of issuingBTools) expect(t.toolset).toBe('issuing_b');
  });

  it.each(each)('%s: description names the family; input has fields', (_, t) => {
    expect(t.description).toMatch(/^Issuing family B \(programs on \/issuing\/api\/v1/);
    expect(Object.keys(t.input.shape).length).toBeGreaterThan(0);
  });

  it('hints: a GET with an effect is not read-only', () => {
    expect(tool('respond_rfi_b').hints.readOnly).toBe(false);
  });

  it('secret fields are real input or output fields; only the assignment-code tool stays out of Slack', () => {
    for (const t of issuingBTools) {
      const secrets = [...(t.secretFields ?? [])].sort();
      expect(secrets, t.name).toEqual([...(SECRETS[t.name] ?? [])].sort());
      const fields = [...Object.keys(t.input.shape), ...Object.keys(t.output.shape)];
      for (const field of secrets) expect(fields, t.name).toContain(field);
      expect(t.secretInput === true, t.name).toBe(t.name === 'assign_card_b');
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
