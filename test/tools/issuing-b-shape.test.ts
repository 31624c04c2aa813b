import { describe, expect, it } from 'vitest';
import { createCardholderB } from '../../src/tools/issuing-b/cardholders.js';
import { updateCardStatusB } from '../../src/tools/issuing-b/cards.js';
import { issuingBTools } from '../../src/tools/issuing-b/index.js';
import { transferWalletFunds } from '../../src/tools/issuing-b/transfer.js';

// What every tool must satisfy (names, titles, description length, schemas described at every
// depth, configuration codes, unique names) is checked in registry-shape.test.ts; here only what is
// particular to issuing family B.

const READ = { readOnly: true, destructive: false, idempotent: true } as const;
/** Repeating it leaves things as they are. */
const CHANGE = { readOnly: false, destructive: false, idempotent: true } as const;
/** Repeating it creates something again (or hands out a new working link). */
const CREATE = { readOnly: false, destructive: false, idempotent: false } as const;
/** A permanent block, a 3DS removal. */
const DESTROY = { readOnly: false, destructive: true, idempotent: true } as const;

/** The 29 tools of the area and their hints (openWorld is true for all). */
const EXPECTED = {
  create_cardholder_b: CREATE,
  get_cardholder_b: READ,
  update_cardholder_b: CHANGE,
  activate_cardholder_b: CHANGE,
  create_wallet_b: CREATE,
  list_wallets_b: READ,
  get_wallet_history_b: READ,
  transfer_wallet_funds: CREATE,
  create_card_b: CREATE,
  assign_card_b: CREATE,
  list_cards_b: READ,
  activate_card_b: CHANGE,
  get_card_details_b: READ,
  // Hands out a secret link: not read-only, so a read-only mode or a viewer never gets one.
  get_card_details_link_b: CREATE,
  get_card_configuration_b: READ,
  update_card_configuration_b: CHANGE,
  update_card_status_b: DESTROY,
  get_set_pin_link_b: CREATE,
  get_reset_pin_link_b: CREATE,
  get_change_pin_link_b: CREATE,
  enroll_3ds_b: CHANGE,
  get_3ds_b: READ,
  update_3ds_b: CHANGE,
  unenroll_3ds_b: DESTROY,
  get_spend_limits_b: READ,
  update_spend_limit_b: CHANGE,
  get_kyc_b: READ,
  get_rfi_b: READ,
  // A GET with an effect: not read-only.
  respond_rfi_b: CHANGE,
} as const;

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
  it('has exactly the 29 tools of the area, once each, in toolset issuing_b', () => {
    expect(Object.keys(EXPECTED)).toHaveLength(29);
    expect(issuingBTools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(new Set(issuingBTools.map((t) => t.name)).size).toBe(issuingBTools.length);
    for (const t of issuingBTools) expect(t.toolset).toBe('issuing_b');
  });

  it.each(each)('%s: description names the family; input has fields', (_, t) => {
    expect(t.description).toMatch(/^Issuing family B \(programs on \/issuing\/api\/v1/);
    expect(Object.keys(t.input.shape).length).toBeGreaterThan(0);
  });

  it.each(each)('%s: hints', (name, t) => {
    expect(t.hints).toEqual({ ...EXPECTED[name as keyof typeof EXPECTED], openWorld: true });
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
