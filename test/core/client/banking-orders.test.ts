import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient, ServiceError } from '../../../src/core/client/index.js';
import { rejectionOf } from '../../helpers/client-http.js';
import { advanceClock, clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: ServiceClient;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = clientFor(sandbox);
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});
beforeEach(() => sandbox.reset());

const company = () => ({ companyCode: sandbox.credentials.companyId });
const count = (operation: string): number => sandbox.stats()[operation] ?? 0;

async function balanceOf(currency: string) {
  const all = await client.accounts.balances(company());
  const entry = all.balances.find((b) => b.currency === currency);
  if (entry === undefined) throw new Error(`no ${currency} balance`);
  return entry;
}

const secondsUntil = (iso: string): number => (Date.parse(iso) - sandbox.clock.nowMs()) / 1000;

describe('conversions client', () => {
  it('quotes, converts and reads a conversion; the balances move once', async () => {
    const quote = await client.conversions.quote({
      ...company(),
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      amount: 1000,
      side: 'SOURCE',
    });
    expect(quote).toMatchObject({
      direction: 'FX_CONVERT',
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      sourceAmount: 1000,
      currencyPair: 'USDEUR',
    });
    expect(quote.targetAmount).toBeCloseTo(1000 * quote.rate, 1);
    expect(quote.inverseRate).toBeCloseTo(1 / quote.rate, 4);
    expect(secondsUntil(quote.expiresAt)).toBeGreaterThan(70);
    expect(secondsUntil(quote.expiresAt)).toBeLessThanOrEqual(75);

    const created = await client.conversions.create({
      ...company(),
      quoteId: quote.quoteId,
      clientReference: 'fx-test-1',
    });
    expect(created).toMatchObject({ status: 'EXECUTING', externalReference: 'fx-test-1' });
    expect(await client.conversions.get({ conversionId: created.conversionId })).toEqual(created);

    expect((await balanceOf('USD')).availableBalance).toBe(249_000);
    expect((await balanceOf('EUR')).availableBalance).toBeCloseTo(120_000 + quote.targetAmount, 2);
  });

  it('quotes by target amount', async () => {
    const quote = await client.conversions.quote({
      ...company(),
      direction: 'FX_CONVERT',
      sourceAssetCode: 'GBP',
      targetAssetCode: 'USD',
      amount: 500,
      side: 'TARGET',
    });
    expect(quote.targetAmount).toBe(500);
    expect(quote.sourceAmount).toBeCloseTo(500 / quote.rate, 1);
  });

  it('surfaces business refusals from the service', async () => {
    const same = await rejectionOf(
      client.conversions.quote({
        ...company(),
        sourceAssetCode: 'USD',
        targetAssetCode: 'USD',
        amount: 10,
        side: 'SOURCE',
      }),
    );
    expect(same).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'conversions.quote' });
    expect((same as ServiceError).serviceMessage).toContain('targetAssetCode');

    const unknown = await rejectionOf(client.conversions.get({ conversionId: 'cnv_nope' }));
    expect(unknown).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'conversions.get' });
  });

  it('refuses a used quote', async () => {
    const quote = await client.conversions.quote({
      ...company(),
      sourceAssetCode: 'EUR',
      targetAssetCode: 'USD',
      amount: 10,
      side: 'SOURCE',
    });
    await client.conversions.create({ ...company(), quoteId: quote.quoteId });
    const again = await rejectionOf(client.conversions.create({ ...company(), quoteId: quote.quoteId }));
    expect(again).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'conversions.create' });
  });

  it('refuses a non-positive amount or an unknown side before sending', async () => {
    const before = count('conversions.quote');
    const error = await rejectionOf(
      client.conversions.quote({
        ...company(),
        sourceAssetCode: 'USD',
        targetAssetCode: 'EUR',
        amount: 0,
        side: 'BOTH' as 'SOURCE',
      }),
    );
    expect(error).toMatchObject({ kind: 'invalid_request', operation: 'conversions.quote' });
    const issues = (error as ServiceError).issues.join('\n');
    expect(issues).toContain('amount');
    expect(issues).toContain('side');
    expect(count('conversions.quote')).toBe(before);
  });
});

describe('payouts client', () => {
  it('quotes a local payout in the funding currency', async () => {
    const quote = await client.payouts.quote({
      ...company(),
      beneficiaryId: 'ben_us_ach_0001',
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      amount: 100,
      side: 'SOURCE',
    });
    expect(quote).toMatchObject({
      sourceAssetCode: 'USD',
      destinationAssetCode: 'USD',
      sourceAmount: 100,
      destinationAmount: 100,
      fxRate: 1,
      networkFee: null,
      feeAssetCode: 'USD',
    });
    expect(quote.totalDebitAmount).toBeCloseTo(
      quote.sourceAmount + (quote.processingFee ?? 0) + (quote.networkFee ?? 0) + (quote.platformFee ?? 0),
      2,
    );
    expect(secondsUntil(quote.expiresAt)).toBeGreaterThan(70);
  });

  it('quotes a cross-currency SWIFT payout with its exchange rate', async () => {
    const quote = await client.payouts.quote({
      ...company(),
      beneficiaryId: 'ben_de_swift_0001',
      destinationRail: 'SWIFT',
      sourceAssetCode: 'USD',
      destinationAssetCode: 'EUR',
      sourceAccountId: 'acc_usd_0001',
      amount: 1000,
      side: 'TARGET',
    });
    expect(quote.destinationAmount).toBe(1000);
    expect(quote.fxRate).toBeGreaterThan(0);
    expect(quote.fxRate).not.toBe(1);
    expect(quote.sourceAmount).toBeCloseTo(1000 / (quote.fxRate ?? 1), 1);
  });

  it('creates a payout, reads it, and holds its debit', async () => {
    const quote = await client.payouts.quote({
      ...company(),
      beneficiaryId: 'ben_us_ach_0001',
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      amount: 200,
      side: 'SOURCE',
    });
    const payout = await client.payouts.create({
      ...company(),
      quoteId: quote.quoteId,
      purposeCode: 'WAGES_SALARY',
      reference: 'INV-42',
      clientReference: 'po-test-1',
    });
    expect(payout).toMatchObject({ status: 'PENDING', externalReference: 'po-test-1' });
    expect(payout.payoutId).toMatch(/^po_/);
    expect(await client.payouts.get({ payoutId: payout.payoutId })).toEqual(payout);
    const usd = await balanceOf('USD');
    expect(usd.availableBalance).toBeCloseTo(250_000 - quote.totalDebitAmount, 2);
    expect(usd.frozenBalance).toBeCloseTo(quote.totalDebitAmount, 2);
  });

  it('refuses an expired quote at the service, and an unknown purpose code in the client', async () => {
    const quote = await client.payouts.quote({
      ...company(),
      beneficiaryId: 'ben_us_ach_0001',
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      amount: 5,
      side: 'SOURCE',
    });
    const before = count('payouts.create');
    const bad = await rejectionOf(
      client.payouts.create({ ...company(), quoteId: quote.quoteId, purposeCode: 'GIFT' as 'TRAVEL' }),
    );
    expect(bad).toMatchObject({ kind: 'invalid_request', operation: 'payouts.create' });
    expect(count('payouts.create')).toBe(before);

    await advanceClock(sandbox, 76);
    const expired = await rejectionOf(
      client.payouts.create({ ...company(), quoteId: quote.quoteId, purposeCode: 'TRAVEL' }),
    );
    expect(expired).toMatchObject({
      kind: 'service',
      httpStatus: 400,
      serviceCode: 400,
      operation: 'payouts.create',
    });
    expect((expired as ServiceError).serviceMessage).toMatch(/expired/);
  });

  it('surfaces unknown payouts and beneficiaries as service refusals', async () => {
    const payout = await rejectionOf(client.payouts.get({ payoutId: 'po_nope' }));
    expect(payout).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'payouts.get' });
    const quote = await rejectionOf(
      client.payouts.quote({
        ...company(),
        beneficiaryId: 'ben_nope',
        destinationRail: 'SWIFT',
        sourceAssetCode: 'USD',
        sourceAccountId: 'acc_usd_0001',
        amount: 5,
        side: 'SOURCE',
      }),
    );
    expect(quote).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'payouts.quote' });
    expect((quote as ServiceError).serviceMessage).toContain('ben_nope');
  });
});
