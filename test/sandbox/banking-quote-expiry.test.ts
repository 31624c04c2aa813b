import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningSandbox,
  SANDBOX_DEFAULTS,
  SandboxClock,
  startSandbox,
} from '../../src/sandbox/index.js';
import { type BankingCaller, bankingCaller, COMPANY } from '../helpers/banking.js';

/** A clock the test sets to the millisecond, so a quote's `expiresAt` can be hit exactly. */
class ManualClock extends SandboxClock {
  ms = Date.parse('2026-03-02T10:00:00.750Z');

  override nowMs(): number {
    return this.ms;
  }
}

const clock = new ManualClock();
const START = clock.ms;
let sandbox: RunningSandbox;
let bank: BankingCaller;
beforeAll(async () => {
  sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS }, clock });
  bank = await bankingCaller(sandbox);
});
afterAll(() => sandbox.close());

const fxQuote = async (): Promise<{ quoteId: string; expiresAt: string }> => {
  const res = await bank.post('/conversions/quote', {
    companyCode: COMPANY,
    direction: 'FX_CONVERT',
    sourceAssetCode: 'USD',
    targetAssetCode: 'EUR',
    amount: 100,
    side: 'SOURCE',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

const payoutQuote = async (): Promise<{ quoteId: string; expiresAt: string }> => {
  const res = await bank.post('/payouts/quote', {
    companyCode: COMPANY,
    beneficiaryId: 'ben_us_ach_0001',
    destinationRail: 'ACH',
    sourceAssetCode: 'USD',
    sourceAccountId: 'acc_usd_0001',
    amount: 100,
    side: 'SOURCE',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

describe('quote expiresAt keeps millisecond precision and is exactly when the quote stops', () => {
  it('FX quote: expiresAt is creation + 75 s to the millisecond; executable 1 ms before, refused at it', async () => {
    clock.ms = START;
    const early = await fxQuote();
    const exact = await fxQuote();
    expect(early.expiresAt).toBe('2026-03-02T10:01:15.750Z');
    expect(exact.expiresAt).toBe('2026-03-02T10:01:15.750Z');

    clock.ms = Date.parse(early.expiresAt) - 1;
    const ok = await bank.post('/conversions', { companyCode: COMPANY, quoteId: early.quoteId });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);

    clock.ms = Date.parse(exact.expiresAt);
    const late = await bank.post('/conversions', { companyCode: COMPANY, quoteId: exact.quoteId });
    expect(late.status).toBe(400);
    expect(late.body.message).toContain('expired at 2026-03-02T10:01:15.750Z');
  });

  it('payout quote: same precision and the same cut-off', async () => {
    clock.ms = START + 600_000;
    const early = await payoutQuote();
    const exact = await payoutQuote();
    expect(early.expiresAt).toBe('2026-03-02T10:11:15.750Z');

    clock.ms = Date.parse(early.expiresAt) - 1;
    const body = (quoteId: string) => ({ companyCode: COMPANY, quoteId, purposeCode: 'GOODS_PURCHASED' });
    const ok = await bank.post('/payouts', body(early.quoteId));
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);

    clock.ms = Date.parse(exact.expiresAt);
    const late = await bank.post('/payouts', body(exact.quoteId));
    expect(late.status).toBe(400);
    expect(late.body.message).toContain('expired at 2026-03-02T10:11:15.750Z');
  });

  it('other ISO 8601 UTC timestamps keep the whole-second format', async () => {
    clock.ms = START + 1_200_000;
    const q = await fxQuote();
    expect((await bank.post('/conversions', { companyCode: COMPANY, quoteId: q.quoteId })).status).toBe(202);
    const balances = await bank.get(`/accounts/balances?companyCode=${COMPANY}`);
    const usd = balances.body.data.balances.find((b: { currency: string }) => b.currency === 'USD');
    expect(usd.asOf).toBe('2026-03-02T10:20:00Z');
    const account = await bank.get(`/accounts/acc_usd_0001?companyCode=${COMPANY}`);
    expect(account.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});
