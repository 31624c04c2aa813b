import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BankingCaller, bankingCaller, COMPANY, usdBalance } from '../helpers/banking.js';
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
  direction: 'FX_CONVERT',
  sourceAssetCode: 'USD',
  targetAssetCode: 'EUR',
  amount: 1000,
  side: 'SOURCE',
  ...overrides,
});

async function quote(
  overrides: Record<string, unknown> = {},
): Promise<{ quoteId: string; [k: string]: unknown }> {
  const res = await bank.post('/conversions/quote', quoteBody(overrides));
  if (res.status !== 200) throw new Error(`quote failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function balanceOf(currency: string): Promise<number> {
  const res = await bank.get(`/accounts/balances?companyCode=${COMPANY}`);
  return res.body.data.balances.find((b: { currency: string }) => b.currency === currency).availableBalance;
}

describe('FX quotes', () => {
  it('quotes a conversion with every FX quote field, valid for 75 s', async () => {
    const before = sandbox.clock.nowMs();
    const res = await bank.post(
      '/conversions/quote',
      quoteBody({ sourceAssetCode: 'EUR', targetAssetCode: 'USD' }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, status: 'SUCCESS' });
    const q = res.body.data;
    expect(q).toMatchObject({
      quoteId: expect.stringMatching(/^fxq_/),
      direction: 'FX_CONVERT',
      sourceAssetCode: 'EUR',
      targetAssetCode: 'USD',
      sourceAmount: 1000,
      currencyPair: 'EURUSD',
      processingFee: 0,
      networkFee: 0,
      feeAssetCode: null,
    });
    // Mid 1.085 less the 0.3 % spread.
    expect(q.rate).toBeCloseTo(1.085 * 0.997, 6);
    expect(q.inverseRate).toBeCloseTo(1 / q.rate, 6);
    expect(q.targetAmount).toBeCloseTo(1000 * q.rate, 2);
    const expires = Date.parse(q.expiresAt);
    // Milliseconds kept: expiresAt is the exact instant the quote stops being executable.
    expect(q.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(expires - before).toBeGreaterThanOrEqual(75_000);
    expect(expires - before).toBeLessThanOrEqual(76_000);
  });

  it('quotes by target amount when side is TARGET', async () => {
    const q = await quote({ amount: 500, side: 'TARGET' });
    expect(q.targetAmount).toBe(500);
    expect(q.sourceAmount as number).toBeCloseTo(500 / (q.rate as number), 2);
  });

  it.each([
    [{ companyCode: undefined }, 'companyCode: is required'],
    [{ companyCode: 'CMP-OTHER' }, "unknown companyCode 'CMP-OTHER'"],
    [{ direction: 'FX_SWAP' }, 'direction: must be one of FX_CONVERT'],
    [{ targetAssetCode: 'USD' }, 'targetAssetCode: must differ from sourceAssetCode'],
    [{ sourceAssetCode: 'XYZ' }, "sourceAssetCode: unknown currency 'XYZ'"],
    [{ targetAssetCode: undefined }, 'targetAssetCode: is required'],
    [{ amount: 0 }, 'amount: must be greater than 0'],
    [{ amount: -5 }, 'amount: must be greater than 0'],
    [{ amount: '100' }, 'amount: must be a number'],
    [{ side: 'BOTH' }, 'side: must be one of SOURCE, TARGET'],
  ])('refuses %o', async (overrides, message) => {
    const res = await bank.post('/conversions/quote', quoteBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, status: 'error' });
    expect(res.body.message).toContain(message);
  });
});

describe('conversions', () => {
  it('executes a quote (202, EXECUTING), debiting the source and crediting the target at once', async () => {
    const q = await quote({ amount: 10_000 });
    const res = await bank.post('/conversions', {
      companyCode: COMPANY,
      quoteId: q.quoteId,
      clientReference: 'fx-001',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ code: 202, status: 'SUCCESS' });
    expect(res.body.data).toEqual({
      conversionId: expect.stringMatching(/^cnv_/),
      externalReference: 'fx-001',
      status: 'EXECUTING',
    });
    expect(await balanceOf('USD')).toBe(240_000);
    expect(await balanceOf('EUR')).toBeCloseTo(120_000 + (q.targetAmount as number), 2);
    const account = await bank.get(`/accounts/acc_usd_0002/balance?companyCode=${COMPANY}`);
    expect(account.body.data.availableBalance).toBe(240_000);
    expect((await usdBalance(bank)).availableBalance).toBe(240_000);
  });

  it('credits a currency the company holds without an account', async () => {
    const q = await quote({ targetAssetCode: 'JPY', amount: 100 });
    expect(Number.isInteger(q.targetAmount)).toBe(true);
    await bank.post('/conversions', { companyCode: COMPANY, quoteId: q.quoteId });
    expect(await balanceOf('JPY')).toBe(q.targetAmount);
  });

  it('generates an externalReference when no clientReference is given', async () => {
    const q = await quote();
    const res = await bank.post('/conversions', { companyCode: COMPANY, quoteId: q.quoteId });
    expect(res.status).toBe(202);
    expect(typeof res.body.data.externalReference).toBe('string');
    expect(res.body.data.externalReference.length).toBeGreaterThan(0);
  });

  it('refuses a used quote', async () => {
    const q = await quote();
    const first = await bank.post('/conversions', { companyCode: COMPANY, quoteId: q.quoteId });
    expect(first.status).toBe(202);
    const second = await bank.post('/conversions', { companyCode: COMPANY, quoteId: q.quoteId });
    expect(second.status).toBe(400);
    expect(second.body.message).toContain('already executed');
    expect(await balanceOf('USD')).toBe(249_000);
  });

  it('accepts a quote 60 s old and refuses one 76 s old', async () => {
    const fresh = await quote();
    const stale = await quote();
    await advanceClock(sandbox, 60);
    const ok = await bank.post('/conversions', { companyCode: COMPANY, quoteId: fresh.quoteId });
    expect(ok.status).toBe(202);
    await advanceClock(sandbox, 16);
    const late = await bank.post('/conversions', { companyCode: COMPANY, quoteId: stale.quoteId });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: 400, status: 'error' });
    expect(late.body.message).toMatch(/quote '.+' expired at .+; request a new quote/);
  });

  it('refuses insufficient funds without moving any balance or using the quote', async () => {
    const q = await quote({ amount: 300_000 });
    const res = await bank.post('/conversions', { companyCode: COMPANY, quoteId: q.quoteId });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('insufficient USD available balance: 250000 available, 300000 needed');
    expect(await balanceOf('USD')).toBe(250_000);
    expect(await balanceOf('EUR')).toBe(120_000);
  });

  it('refuses unknown quotes, payout quotes, a missing quoteId and a wrong companyCode', async () => {
    const unknown = await bank.post('/conversions', { companyCode: COMPANY, quoteId: 'fxq_nope' });
    expect(unknown.body.message).toBe("quote 'fxq_nope' not found");
    const payoutQuote = await bank.post('/payouts/quote', {
      companyCode: COMPANY,
      beneficiaryId: 'ben_us_ach_0001',
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      amount: 10,
      side: 'SOURCE',
    });
    const wrongKind = await bank.post('/conversions', {
      companyCode: COMPANY,
      quoteId: payoutQuote.body.data.quoteId,
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toContain('is a payout quote');
    expect((await bank.post('/conversions', { companyCode: COMPANY })).body.message).toContain(
      'quoteId: is required',
    );
    const q = await quote();
    const wrong = await bank.post('/conversions', { companyCode: 'X', quoteId: q.quoteId });
    expect(wrong.body.message).toBe("unknown companyCode 'X'");
  });

  it('reads a conversion, which completes 60 s after creation', async () => {
    const q = await quote();
    const created = await bank.post('/conversions', { companyCode: COMPANY, quoteId: q.quoteId });
    const id = created.body.data.conversionId;
    const read = await bank.get(`/conversions/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
    await advanceClock(sandbox, 59);
    expect((await bank.get(`/conversions/${id}`)).body.data.status).toBe('EXECUTING');
    await advanceClock(sandbox, 2);
    expect((await bank.get(`/conversions/${id}`)).body.data).toMatchObject({
      conversionId: id,
      status: 'COMPLETED',
    });

    const unknown = await bank.get('/conversions/cnv_nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("conversion 'cnv_nope' not found");
  });

  it('replays a repeated x-request-id once and refuses it for a different body', async () => {
    const q = await quote();
    const headers = bank.headers();
    const body = { companyCode: COMPANY, quoteId: q.quoteId };
    const first = await bank.post('/conversions', body, headers);
    const again = await bank.post('/conversions', body, headers);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf('USD')).toBe(249_000);
    const conflict = await bank.post('/conversions', { ...body, clientReference: 'other' }, headers);
    expect(conflict.status).toBe(400);
    expect(conflict.body.message).toContain('already used');
  });
});
