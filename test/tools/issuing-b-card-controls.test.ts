import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { SEED } from '../helpers/issuing-b.js';

// Card controls of issuing family B: configuration, PIN links, 3D Secure, spend limits.

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());
beforeEach(() => core.sandbox.reset());

const alice = (cardId: string = SEED.alice.virtual) => ({
  cardholderId: SEED.alice.id,
  walletId: SEED.alice.wallet,
  cardId,
});
const bruno = { cardholderId: SEED.bruno.id, walletId: SEED.bruno.wallet, cardId: SEED.bruno.virtual };

interface Limit {
  transaction_type: string;
  amount_limit_period: string;
  amount_limit: number | string;
  active: boolean;
  currency_code: string;
}
const limits = async (card = alice()): Promise<Limit[]> =>
  (await core.ok('get_spend_limits_b', card)).limits as Limit[];
const limitOf = (all: Limit[], type: string, period: string) =>
  all.find((l) => l.transaction_type === type && l.amount_limit_period === period);
const auditText = async (): Promise<string> => JSON.stringify(await core.audit.list({ limit: 10_000 }));

describe('card configuration (family B)', () => {
  it('turns card-present transactions off and on', async () => {
    expect(await core.ok('get_card_configuration_b', alice())).toEqual({
      card_present_transaction_enabled: true,
    });
    expect(
      await core.ok('update_card_configuration_b', { ...alice(), card_present_transaction_enabled: false }),
    ).toEqual({ card_present_transaction_enabled: false });
    expect(await core.ok('get_card_configuration_b', alice())).toEqual({
      card_present_transaction_enabled: false,
    });
  });

  it('refuses a string where a boolean is needed, naming the field', async () => {
    const result = await core.call('update_card_configuration_b', {
      ...alice(),
      card_present_transaction_enabled: 'no',
    });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid') expect(result.errors[0]?.path).toBe('card_present_transaction_enabled');
  });
});

describe('PIN links (family B)', () => {
  it('hands out set, reset and change links; none reaches the audit log', async () => {
    const { cardId } = await core.ok('create_card_b', {
      cardholderId: SEED.alice.id,
      walletId: SEED.alice.wallet,
    });
    const card = alice(cardId as string);

    // A new card has no PIN: the change link is handed out all the same, and sets no PIN.
    const isPinSet = async (): Promise<boolean> =>
      ((await core.ok('get_card_details_b', card)).card as { is_pin_set: boolean }).is_pin_set;
    const early = await core.ok('get_change_pin_link_b', card);
    expect(early.set_pin_url).toMatch(/^https:\/\/cards\.sandbox\.invalid\/pin\/change\//);
    expect(await isPinSet()).toBe(false);

    const set = await core.ok('get_set_pin_link_b', card);
    expect(set.set_pin_url).toMatch(/^https:\/\/cards\.sandbox\.invalid\/pin\/set\//);
    expect(await isPinSet()).toBe(true);
    const reset = await core.ok('get_reset_pin_link_b', card);
    expect(reset.set_pin_url).toMatch(/\/pin\/reset\//);
    const changed = await core.ok('get_change_pin_link_b', card);
    expect(changed.set_pin_url).toMatch(/\/pin\/change\//);
    expect(changed.set_pin_url).not.toBe(early.set_pin_url);

    const log = await auditText();
    for (const url of [early.set_pin_url, set.set_pin_url, reset.set_pin_url, changed.set_pin_url]) {
      expect(log).not.toContain(url as string);
    }
  });

  it('refuses a PIN link for a permanently blocked card', async () => {
    const result = await core.call('get_set_pin_link_b', alice(SEED.alice.stolen));
    expect(result.status).toBe('failed');
    if (result.status === 'failed') expect(result.error.message).toMatch(/permanently blocked/);
  });
});

describe('3D Secure (family B)', () => {
  it('get_3ds_b shows the seeded enrollments with the destination in full', async () => {
    expect(await core.ok('get_3ds_b', alice())).toEqual({
      enrolled: true,
      enrollment: { otp_delivery_method: 'EMAIL', destination: SEED.alice.email, status: 'ACTIVE' },
    });
    // SMS: + country code and mobile of the cardholder (seed: Brazil, 11987654321).
    expect((await core.ok('get_3ds_b', bruno)).enrollment).toEqual({
      otp_delivery_method: 'SMS',
      destination: '+5511987654321',
      status: 'ACTIVE',
    });
  });

  it('update_3ds_b, unenroll_3ds_b and enroll_3ds_b change what get_3ds_b shows', async () => {
    expect(await core.ok('update_3ds_b', { ...alice(), otp_delivery_method: 'SMS' })).toEqual({
      otp_delivery_method: 'SMS',
    });
    expect((await core.ok('get_3ds_b', alice())).enrollment).toMatchObject({ otp_delivery_method: 'SMS' });

    expect(await core.ok('unenroll_3ds_b', alice())).toEqual({ enrolled: false });
    expect(await core.ok('get_3ds_b', alice())).toEqual({ enrolled: false, enrollment: null });

    const notEnrolled = await core.call('update_3ds_b', { ...alice(), otp_delivery_method: 'EMAIL' });
    expect(notEnrolled.status).toBe('failed');
    if (notEnrolled.status === 'failed') expect(notEnrolled.error.message).toMatch(/is not enrolled in 3DS/);

    expect(await core.ok('enroll_3ds_b', { ...alice(), otp_delivery_method: 'EMAIL' })).toEqual({
      enrolled: true,
      otp_delivery_method: 'EMAIL',
    });
    expect((await core.ok('get_3ds_b', alice())).enrollment).toMatchObject({ otp_delivery_method: 'EMAIL' });
  });

  it('refuses an OTP method outside the enum, naming the field', async () => {
    const result = await core.call('enroll_3ds_b', { ...alice(), otp_delivery_method: 'PUSH' });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid')
      expect(result.errors.map((e) => e.path)).toEqual(['otp_delivery_method']);
  });
});

describe('spend limits (family B)', () => {
  it('get_spend_limits_b shows the default limits', async () => {
    const all = await limits();
    expect(limitOf(all, 'PURCHASE', 'TRANSACTION')).toMatchObject({ active: true, currency_code: 'USD' });
    expect(Number(limitOf(all, 'PURCHASE', 'TRANSACTION')?.amount_limit)).toBe(250_000);
    expect(Number(limitOf(all, 'ATM_CASH_WITHDRAWAL', 'DAY')?.amount_limit)).toBe(3_000);
  });

  it('update_spend_limit_b replaces one limit, as get_spend_limits_b and the card details show', async () => {
    const input = {
      ...alice(),
      transaction_type: 'PURCHASE',
      amount_limit_period: 'DAY',
      amount_limit: 1200,
    };
    expect(await core.ok('update_spend_limit_b', input)).toEqual({
      transaction_type: 'PURCHASE',
      amount_limit_period: 'DAY',
      amount_limit: 1200,
    });
    const all = await limits();
    expect(Number(limitOf(all, 'PURCHASE', 'DAY')?.amount_limit)).toBe(1200);
    expect(Number(limitOf(all, 'PURCHASE', 'MONTH')?.amount_limit)).toBe(2_000_000);
    const card = (await core.ok('get_card_details_b', alice())).card as { daily_spend_limit: string };
    expect(Number(card.daily_spend_limit)).toBe(1200);
  });

  it('refuses a zero or fractional limit before sending, naming the field', async () => {
    for (const amount_limit of [0, 12.5]) {
      const result = await core.call('update_spend_limit_b', {
        ...alice(),
        transaction_type: 'PURCHASE',
        amount_limit_period: 'DAY',
        amount_limit,
      });
      expect(result.status).toBe('invalid');
      if (result.status === 'invalid') expect(result.errors.map((e) => e.path)).toEqual(['amount_limit']);
    }
  });

  it("surfaces the service's refusal of an ATM limit period other than DAY or MONTH", async () => {
    const result = await core.call('update_spend_limit_b', {
      ...alice(),
      transaction_type: 'ATM_CASH_WITHDRAWAL',
      amount_limit_period: 'WEEK',
      amount_limit: 500,
    });
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.error).toMatchObject({ kind: 'service', operation: 'issuingB.updateSpendLimit' });
    expect(result.error.message).toMatch(/ATM_CASH_WITHDRAWAL limits support only DAY and MONTH/);
    expect(limitOf(await limits(), 'ATM_CASH_WITHDRAWAL', 'WEEK')).toBeUndefined();
  });
});
