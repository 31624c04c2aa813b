import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  achBeneficiary,
  type BankingCaller,
  bankingCaller,
  COMPANY,
  usdBalance,
} from '../helpers/banking.js';
import { advanceClock, type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let bank: BankingCaller;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  bank = await bankingCaller(sandbox);
});
beforeEach(() => sandbox.reset());
afterAll(() => sandbox.close());

const quoteBody = (overrides: Record<string, unknown> = {}) => ({
  companyCode: COMPANY,
  beneficiaryId: 'ben_us_ach_0001',
  destinationRail: 'ACH',
  sourceAssetCode: 'USD',
  sourceAccountId: 'acc_usd_0001',
  amount: 1000,
  side: 'SOURCE',
  ...overrides,
});

async function quote(
  overrides: Record<string, unknown> = {},
): Promise<{ quoteId: string; totalDebitAmount: number }> {
  const res = await bank.post('/payouts/quote', quoteBody(overrides));
  if (res.status !== 200) throw new Error(`quote failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const createBody = (quoteId: string, overrides: Record<string, unknown> = {}) => ({
  companyCode: COMPANY,
  quoteId,
  purposeCode: 'GOODS_PURCHASED',
  reference: 'INV-2026-001',
  ...overrides,
});

async function payout(overrides: Record<string, unknown> = {}): Promise<string> {
  const q = await quote(overrides);
  const res = await bank.post('/payouts', createBody(q.quoteId));
  if (res.status !== 202) throw new Error(`payout failed: ${JSON.stringify(res.body)}`);
  return res.body.data.payoutId;
}

const status = async (id: string): Promise<string> => (await bank.get(`/payouts/${id}`)).body.data.status;

describe('payout quotes', () => {
  it('quotes a SWIFT payout in another currency with fees in the funding currency', async () => {
    const before = sandbox.clock.nowMs();
    const res = await bank.post(
      '/payouts/quote',
      quoteBody({ beneficiaryId: 'ben_de_swift_0001', destinationRail: 'swift' }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, status: 'SUCCESS' });
    const q = res.body.data;
    expect(q).toMatchObject({
      quoteId: expect.stringMatching(/^poq_/),
      sourceAssetCode: 'USD',
      destinationAssetCode: 'EUR',
      sourceAmount: 1000,
      processingFee: 15,
      networkFee: 10,
      feeAssetCode: 'USD',
      platformFee: 1,
      totalDebitAmount: 1026,
    });
    expect(q.fxRate).toBeCloseTo((1 / 1.085) * 0.997, 6);
    expect(q.destinationAmount).toBeCloseTo(1000 * q.fxRate, 2);
    const validity = Date.parse(q.expiresAt) - before;
    expect(validity).toBeGreaterThanOrEqual(74_000);
    expect(validity).toBeLessThanOrEqual(76_000);
  });

  it('quotes a local payout in the same currency: rate 1, local fee, no network fee', async () => {
    const q = (await bank.post('/payouts/quote', quoteBody({ destinationAssetCode: 'USD' }))).body.data;
    expect(q).toMatchObject({
      destinationAssetCode: 'USD',
      sourceAmount: 1000,
      destinationAmount: 1000,
      fxRate: 1,
      processingFee: 1,
      networkFee: null,
      platformFee: 1,
      totalDebitAmount: 1002,
    });
    const target = (await bank.post('/payouts/quote', quoteBody({ amount: 250, side: 'TARGET' }))).body.data;
    expect(target).toMatchObject({ sourceAmount: 250, destinationAmount: 250, totalDebitAmount: 251.25 });
  });

  it.each([
    [{ companyCode: undefined }, 'companyCode: is required'],
    [{ companyCode: 'CMP-OTHER' }, "unknown companyCode 'CMP-OTHER'"],
    [{ beneficiaryId: 'ben_nope' }, "beneficiary 'ben_nope' not found"],
    [{ sourceAccountId: 'acc_nope' }, "account 'acc_nope' not found"],
    [{ sourceAccountId: undefined }, 'sourceAccountId: is required'],
    [
      { sourceAccountId: 'acc_eur_0001' },
      "sourceAssetCode: must be EUR, the currency of sourceAccountId 'acc_eur_0001'",
    ],
    [
      { destinationAssetCode: 'GBP' },
      "destinationAssetCode: must be USD, the currency of beneficiary 'ben_us_ach_0001'",
    ],
    [
      { destinationRail: 'CARRIER_PIGEON' },
      'destinationRail: must be one of SWIFT, LOCAL, ACH, FEDWIRE, SEPA, FPS',
    ],
    [{ destinationRail: '' }, 'destinationRail: must not be empty'],
    [{ amount: 0 }, 'amount: must be greater than 0'],
    [{ side: undefined }, 'side: is required'],
  ])('refuses %o', async (overrides, message) => {
    const res = await bank.post('/payouts/quote', quoteBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, status: 'error' });
    expect(res.body.message).toContain(message);
  });
});

describe('payouts', () => {
  it('creates a payout (202, PENDING) and holds the total debit until it settles', async () => {
    const q = await quote();
    const res = await bank.post('/payouts', createBody(q.quoteId, { clientReference: 'po-001' }));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ code: 202, status: 'SUCCESS' });
    expect(res.body.data).toEqual({
      payoutId: expect.stringMatching(/^po_/),
      externalReference: 'po-001',
      status: 'PENDING',
    });
    const usd = await usdBalance(bank);
    expect(usd).toMatchObject({ availableBalance: 248_998, frozenBalance: 1002 });
    const account = await bank.get(`/accounts/acc_usd_0001/balance?companyCode=${COMPANY}`);
    expect(account.body.data).toMatchObject({ availableBalance: 248_998, frozenBalance: 1002 });
    const detail = await bank.get(`/accounts/acc_usd_0002?companyCode=${COMPANY}`);
    expect(detail.body.data.balance.availableBalance).toBe(248_998);
  });

  it('progresses PENDING → PROCESSING at 30 s → COMPLETED at 120 s, releasing the hold', async () => {
    const id = await payout();
    const read = await bank.get(`/payouts/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      payoutId: id,
      externalReference: expect.any(String),
      status: 'PENDING',
    });
    await advanceClock(sandbox, 29);
    expect(await status(id)).toBe('PENDING');
    await advanceClock(sandbox, 1);
    expect(await status(id)).toBe('PROCESSING');
    await advanceClock(sandbox, 90);
    expect(await status(id)).toBe('COMPLETED');
    expect(await usdBalance(bank)).toMatchObject({ availableBalance: 248_998, frozenBalance: 0 });
  });

  it('fails a payout to an account number ending in 0000 and refunds it exactly once', async () => {
    const failing = await payout({ beneficiaryId: 'ben_us_fail_0001', destinationRail: 'FEDWIRE' });
    const ok = await payout({ amount: 100 });
    expect(await usdBalance(bank)).toMatchObject({
      availableBalance: 250_000 - 1002 - 101.1,
      frozenBalance: 1103.1,
    });
    await advanceClock(sandbox, 121);
    expect(await status(failing)).toBe('FAILED');
    expect(await status(ok)).toBe('COMPLETED');
    for (let i = 0; i < 3; i += 1) {
      expect(await usdBalance(bank)).toMatchObject({ availableBalance: 250_000 - 101.1, frozenBalance: 0 });
      await advanceClock(sandbox, 5);
    }
  });

  it('fails payouts to a newly created beneficiary whose account number ends in 0000', async () => {
    const body = achBeneficiary();
    body.bank.accountNumber = '5550000';
    const created = await bank.post('/beneficiaries', body);
    const id = await payout({ beneficiaryId: created.body.data.beneficiary_id });
    await advanceClock(sandbox, 120);
    expect(await status(id)).toBe('FAILED');
    expect((await usdBalance(bank)).availableBalance).toBe(250_000);
  });

  it('refuses insufficient funds, naming the balance', async () => {
    const q = await quote({ amount: 249_999 });
    const res = await bank.post('/payouts', createBody(q.quoteId));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `insufficient USD available balance: 250000 available, ${q.totalDebitAmount} needed`,
    );
    expect((await usdBalance(bank)).availableBalance).toBe(250_000);
  });

  it.each([
    [{ purposeCode: 'GIFTS' }, 'purposeCode: must be one of AUDIO_VISUAL_SERVICES, BILL_PAYMENT'],
    [{ purposeCode: 'goods_purchased' }, 'purposeCode: must be one of'],
    [{ purposeCode: undefined }, 'purposeCode: is required'],
    [{ reference: '' }, 'reference: must not be empty'],
    [{ companyCode: 'CMP-OTHER' }, "unknown companyCode 'CMP-OTHER'"],
    [{ quoteId: 'poq_nope' }, "quote 'poq_nope' not found"],
  ])('refuses %o', async (overrides, message) => {
    const q = await quote();
    const res = await bank.post('/payouts', createBody(q.quoteId, overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, status: 'error' });
    expect(res.body.message).toContain(message);
  });

  it('accepts every purpose code of the spec', async () => {
    for (const code of [
      'WAGES_SALARY',
      'TRANSFER_TO_OWN_ACCOUNT',
      'DONATION_CHARITABLE_CONTRIBUTION',
      'TRAVEL',
    ]) {
      const q = await quote({ amount: 1 });
      expect((await bank.post('/payouts', createBody(q.quoteId, { purposeCode: code }))).status).toBe(202);
    }
  });

  it('refuses a used quote, an expired quote and an FX quote', async () => {
    const q = await quote();
    expect((await bank.post('/payouts', createBody(q.quoteId))).status).toBe(202);
    const reused = await bank.post('/payouts', createBody(q.quoteId));
    expect(reused.status).toBe(400);
    expect(reused.body.message).toContain('already executed');

    const fresh = await quote();
    const stale = await quote();
    await advanceClock(sandbox, 60);
    expect((await bank.post('/payouts', createBody(fresh.quoteId))).status).toBe(202);
    await advanceClock(sandbox, 16);
    const expired = await bank.post('/payouts', createBody(stale.quoteId));
    expect(expired.status).toBe(400);
    expect(expired.body.message).toContain('expired');

    const fx = await bank.post('/conversions/quote', {
      companyCode: COMPANY,
      direction: 'FX_CONVERT',
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      amount: 10,
      side: 'SOURCE',
    });
    const wrongKind = await bank.post('/payouts', createBody(fx.body.data.quoteId));
    expect(wrongKind.body.message).toContain('is an FX quote');
  });

  it('replays a repeated x-request-id (one payout, one debit) and refuses it for a different body', async () => {
    const q = await quote();
    const headers = bank.headers();
    const first = await bank.post('/payouts', createBody(q.quoteId), headers);
    const again = await bank.post('/payouts', createBody(q.quoteId), headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.data.payoutId).toBe(first.body.data.payoutId);
    expect((await usdBalance(bank)).availableBalance).toBe(250_000 - q.totalDebitAmount);

    const conflict = await bank.post('/payouts', createBody(q.quoteId, { purposeCode: 'TRAVEL' }), headers);
    expect(conflict.status).toBe(400);
    expect(conflict.body.message).toContain('already used');
    expect((await usdBalance(bank)).availableBalance).toBe(250_000 - q.totalDebitAmount);
  });

  it('refuses an unknown payout id', async () => {
    const res = await bank.get('/payouts/po_nope');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, status: 'error', message: "payout 'po_nope' not found" });
  });
});
