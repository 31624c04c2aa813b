import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/core/tool.js';
import { createBeneficiary } from '../../src/tools/banking/beneficiaries.js';
import { achBeneficiary } from '../helpers/banking.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { advanceClock } from '../helpers/sandbox.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(async () => {
  await core.close();
});
beforeEach(() => core.sandbox.reset());

/** The spec's sample ACH payee, leaving `companyCode` to configuration as a user would. */
function achPayee(): Record<string, unknown> {
  const { companyCode: _configured, ...payee } = achBeneficiary();
  return payee;
}

const usdPayout = {
  beneficiaryId: 'ben_us_ach_0001',
  destinationRail: 'ACH',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  amount: 1000,
  side: 'SOURCE',
};

describe('banking tools: beneficiaries', () => {
  it('list_beneficiary_options lists the corridors, optionally of one currency', async () => {
    const all = await core.ok('list_beneficiary_options', {});
    expect(all.options).toHaveLength(8);
    const eur = (await core.ok('list_beneficiary_options', { currency: 'EUR' })).options as {
      currency: string;
      country: string;
      paymentMethod: string;
    }[];
    expect(eur.length).toBeGreaterThan(0);
    for (const option of eur)
      expect(option).toMatchObject({ currency: 'EUR', country: 'DE', paymentMethod: 'SWIFT' });
  });

  it('get_beneficiary_schema gives the rails first, then the rules of the chosen rail', async () => {
    const corridor = { currency: 'USD', entityType: 'INDIVIDUAL', paymentMethod: 'LOCAL' };
    const general = await core.ok('get_beneficiary_schema', corridor);
    expect(general.clearingSystems).toEqual(['ACH', 'FEDWIRE', 'LOCAL']);
    expect((general.schema as { required: string[] }).required).toEqual(
      expect.arrayContaining(['companyCode', 'entityType', 'currency', 'firstName', 'lastName', 'bank']),
    );

    const ach = await core.ok('get_beneficiary_schema', {
      ...corridor,
      country: 'US',
      clearingSystem: 'ACH',
    });
    expect(ach.clearingSystems).toEqual(['ACH']);
    const bank = (ach.schema as { properties: { bank: { required: string[] } } }).properties.bank;
    expect(bank.required).toEqual(
      expect.arrayContaining(['routingCodeType', 'routingCodeValue', 'swiftCode']),
    );
  });

  it('get_beneficiary_schema passes on the refusal of a corridor that is not offered', async () => {
    const result = await core.call('get_beneficiary_schema', {
      currency: 'JPY',
      entityType: 'COMPANY',
      paymentMethod: 'LOCAL',
    });
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'beneficiaries.schema' },
    });
    if (result.status === 'failed')
      expect(result.error.message).toContain('no beneficiary corridor for currency JPY');
  });

  it('create_beneficiary registers a payee that a payout can then be quoted to', async () => {
    const created = await core.approved('create_beneficiary', achPayee());
    expect(created.beneficiary_id).toMatch(/\S/);
    const quote = await core.ok('quote_payout', { ...usdPayout, beneficiaryId: created.beneficiary_id });
    expect(quote).toMatchObject({ sourceAmount: 1000, destinationAssetCode: 'USD' });
  });

  it('create_beneficiary registers a payee without displayName (optional in the corridor schema)', async () => {
    const { displayName: _name, ...payee } = achPayee();
    expect(payee).not.toHaveProperty('displayName');
    const created = await core.approved('create_beneficiary', payee);
    expect(created.beneficiary_id).toMatch(/\S/);
    const quote = await core.ok('quote_payout', { ...usdPayout, beneficiaryId: created.beneficiary_id });
    expect(quote).toMatchObject({ sourceAmount: 1000, destinationAssetCode: 'USD' });
  });

  it('create_beneficiary names the fields that break the corridor schema, and sends nothing', async () => {
    const payee = achPayee();
    const bank = { ...(payee.bank as Record<string, unknown>), routingCodeType: 'aba' };
    const address = { country: 'US' };
    const result = await core.call('create_beneficiary', { ...payee, bank, address });
    expect(result.status).toBe('invalid');
    if (result.status !== 'invalid') return;
    const paths = result.errors.map((e) => e.path);
    expect(paths).toContain('bank.routingCodeType');
    expect(paths).toContain('address.city');
    expect(result.message).toContain('/bank/routingCodeType');
  });

  it('create_beneficiary refuses a missing payment method as a field error', async () => {
    const { extras: _extras, ...payee } = achPayee();
    const result = await core.call('create_beneficiary', payee);
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid') expect(result.errors.map((e) => e.path)).toEqual(['extras']);
  });

  it('create_beneficiary sends the execution request id, so a re-execution creates no second payee', async () => {
    const ctx = (requestId: string): ToolContext => ({
      client: core.client,
      defaults: {
        companyCode: 'CMP-DEMO',
        programCode: 'PRG-DEMO',
        agentCode: 'AGT-DEMO',
        subagentCode: 'SUB-DEMO',
      },
      actorName: 'cli:operator',
      requestId,
      once: (_key, produce) => produce(),
      progress: () => {},
    });
    const input = createBeneficiary.input.parse(achPayee());
    const requestId = randomUUID();
    const first = await createBeneficiary.run(input, ctx(requestId));
    const again = await createBeneficiary.run(input, ctx(requestId));
    const other = await createBeneficiary.run(input, ctx(randomUUID()));
    expect(again.beneficiary_id).toBe(first.beneficiary_id);
    expect(other.beneficiary_id).not.toBe(first.beneficiary_id);
  });
});

describe('banking tools: conversions', () => {
  it('quote_conversion quotes at the spread rate, valid for 75 seconds, and moves nothing', async () => {
    const quote = await core.ok('quote_conversion', {
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      amount: 1000,
      side: 'SOURCE',
    });
    expect(quote).toMatchObject({ direction: 'FX_CONVERT', sourceAmount: 1000, currencyPair: 'USDEUR' });
    expect(quote.targetAmount).toBeCloseTo((1000 / 1.085) * 0.997, 2);
    const { now } = (await (await fetch(`${core.sandbox.url}/_sandbox/clock`)).json()) as { now: string };
    // `expiresAt` is given to the second: 75 s after the quote, so 74-75 s after a later reading of the clock.
    const validity = Date.parse(quote.expiresAt as string) - Date.parse(now);
    expect(validity).toBeGreaterThan(73_000);
    expect(validity).toBeLessThanOrEqual(75_000);
    const { balances } = await core.ok('get_balances', {});
    expect(
      (balances as { currency: string; availableBalance: number }[]).find((b) => b.currency === 'USD'),
    ).toMatchObject({
      availableBalance: 250000,
    });
  });

  it('quote_conversion with side TARGET fixes the amount received', async () => {
    const quote = await core.ok('quote_conversion', {
      sourceAssetCode: 'GBP',
      targetAssetCode: 'USD',
      amount: 500,
      side: 'TARGET',
    });
    expect(quote).toMatchObject({ targetAmount: 500, sourceAssetCode: 'GBP', targetAssetCode: 'USD' });
  });

  it('quote_conversion refuses a non-positive amount as a field error and passes on service refusals', async () => {
    const invalid = await core.call('quote_conversion', {
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      amount: 0,
      side: 'SOURCE',
    });
    expect(invalid.status).toBe('invalid');
    if (invalid.status === 'invalid') expect(invalid.errors.map((e) => e.path)).toEqual(['amount']);

    const same = await core.call('quote_conversion', {
      sourceAssetCode: 'USD',
      targetAssetCode: 'USD',
      amount: 10,
      side: 'SOURCE',
    });
    expect(same).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'conversions.quote' },
    });
    if (same.status === 'failed') expect(same.error.message).toContain('must differ from sourceAssetCode');
  });

  it('get_conversion follows a conversion from EXECUTING to COMPLETED', async () => {
    const quote = await core.ok('quote_conversion', {
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      amount: 100,
      side: 'SOURCE',
    });
    const created = await core.client.conversions.create({
      companyCode: 'CMP-DEMO',
      quoteId: quote.quoteId as string,
      clientReference: 'tools-test-conv',
    });
    const executing = await core.ok('get_conversion', { conversionId: created.conversionId });
    expect(executing).toEqual({
      conversionId: created.conversionId,
      externalReference: 'tools-test-conv',
      status: 'EXECUTING',
    });
    await advanceClock(core.sandbox, 61);
    expect((await core.ok('get_conversion', { conversionId: created.conversionId })).status).toBe(
      'COMPLETED',
    );
  });

  it('get_conversion passes on the refusal of an unknown conversion', async () => {
    const result = await core.call('get_conversion', { conversionId: 'conv_nope' });
    expect(result.status).toBe('failed');
    if (result.status === 'failed') expect(result.error.message).toContain("'conv_nope' not found");
  });
});

describe('banking tools: payouts', () => {
  it('quote_payout prices a local payout: fees and total debit in the funding currency', async () => {
    const quote = await core.ok('quote_payout', usdPayout);
    expect(quote).toMatchObject({
      sourceAssetCode: 'USD',
      destinationAssetCode: 'USD',
      sourceAmount: 1000,
      destinationAmount: 1000,
      processingFee: 1,
      platformFee: 1,
      feeAssetCode: 'USD',
      totalDebitAmount: 1002,
    });
  });

  it('quote_payout prices a cross-currency SWIFT payout with its FX rate', async () => {
    const quote = await core.ok('quote_payout', {
      ...usdPayout,
      beneficiaryId: 'ben_de_swift_0001',
      destinationRail: 'SWIFT',
      destinationAssetCode: 'EUR',
    });
    expect(quote).toMatchObject({ destinationAssetCode: 'EUR', processingFee: 15, networkFee: 10 });
    expect(quote.fxRate).toBeCloseTo((1 / 1.085) * 0.997, 6);
    expect(quote.totalDebitAmount).toBe(1026);
  });

  it('quote_payout passes on the refusal of an unknown beneficiary', async () => {
    const result = await core.call('quote_payout', { ...usdPayout, beneficiaryId: 'ben_nope' });
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'payouts.quote' },
    });
    if (result.status === 'failed') expect(result.error.message).toContain("'ben_nope' not found");
  });

  it('get_payout follows a payout from PENDING to PROCESSING', async () => {
    const quote = await core.ok('quote_payout', usdPayout);
    const created = await core.client.payouts.create({
      companyCode: 'CMP-DEMO',
      quoteId: quote.quoteId as string,
      purposeCode: 'BUSINESS_EXPENSES',
    });
    const pending = await core.ok('get_payout', { payoutId: created.payoutId });
    expect(pending).toMatchObject({ payoutId: created.payoutId, status: 'PENDING' });
    await advanceClock(core.sandbox, 31);
    expect((await core.ok('get_payout', { payoutId: created.payoutId })).status).toBe('PROCESSING');
  });

  it('get_payout refuses an empty id as a field error', async () => {
    const result = await core.call('get_payout', { payoutId: '  ' });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid') expect(result.errors.map((e) => e.path)).toEqual(['payoutId']);
  });
});
