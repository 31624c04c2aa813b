import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANKING, type BankingCaller, bankingCaller, COMPANY } from '../helpers/banking.js';
import { headerSets, type RunningSandbox, raw, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let bank: BankingCaller;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  bank = await bankingCaller(sandbox);
});
afterAll(() => sandbox.close());

describe('accounts list', () => {
  it('lists every account in the banking envelope with paging facts', async () => {
    const res = await bank.get(`/accounts?companyCode=${COMPANY}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, status: 'SUCCESS', message: expect.any(String) });
    const data = res.body.data;
    expect(data).toMatchObject({ pageNumber: 1, pageSize: 10, total: 5 });
    expect(data.items.map((a: { accountId: string }) => a.accountId)).toEqual([
      'acc_usd_0001',
      'acc_usd_0002',
      'acc_eur_0001',
      'acc_gbp_0001',
      'acc_sgd_0001',
    ]);
    expect(data.items[0]).toEqual({
      accountId: 'acc_usd_0001',
      externalReference: 'EXT-USD-0001',
      currency: 'USD',
      paymentMethod: 'SWIFT',
      status: 'ACTIVE',
      rails: ['swift'],
      accountNumber: '8337104527',
      accountNumberMasked: '******4527',
      iban: null,
      swiftCode: 'CMFGUS33',
      routingNumber: '026073150',
      sortCode: null,
      bankName: 'Community Federal Savings Bank',
      bankAddress: expect.stringContaining('NY'),
      accountOwnerName: 'Demo Trading Pte. Ltd.',
    });
    // List items do not carry the detail view's fields.
    expect(data.items[0].balance).toBeUndefined();
  });

  it('filters by currency and pages from 1', async () => {
    const usd = await bank.get(`/accounts?companyCode=${COMPANY}&currency=USD`);
    expect(usd.body.data.total).toBe(2);
    expect(usd.body.data.items.every((a: { currency: string }) => a.currency === 'USD')).toBe(true);

    const page2 = await bank.get(`/accounts?companyCode=${COMPANY}&pageNumber=2&pageSize=2`);
    expect(page2.body.data).toMatchObject({ pageNumber: 2, pageSize: 2, total: 5 });
    expect(page2.body.data.items.map((a: { accountId: string }) => a.accountId)).toEqual([
      'acc_eur_0001',
      'acc_gbp_0001',
    ]);
    const beyond = await bank.get(`/accounts?companyCode=${COMPANY}&pageNumber=9`);
    expect(beyond.body.data.items).toEqual([]);
  });

  it('caps a pageSize above 100 to 100 instead of refusing it', async () => {
    const res = await bank.get(`/accounts?companyCode=${COMPANY}&pageSize=500`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ pageNumber: 1, pageSize: 100, total: 5 });
    expect(res.body.data.items).toHaveLength(5);
  });

  it.each([
    ['pageNumber=0', 'pageNumber must be at least 1'],
    ['pageNumber=-1', 'pageNumber must be at least 1'],
    ['pageSize=0', 'pageSize must be at least 1'],
    ['pageSize=abc', 'pageSize must be an integer'],
    ['currency=usd', 'currency must be a 3-letter'],
  ])('refuses %s', async (query, message) => {
    const res = await bank.get(`/accounts?companyCode=${COMPANY}&${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, status: 'error' });
    expect(res.body.message).toContain(message);
  });

  it.each(['/accounts', '/accounts/acc_usd_0001', '/accounts/balances', '/accounts/acc_usd_0001/balance'])(
    '%s refuses a missing or wrong companyCode',
    async (path) => {
      const missing = await bank.get(path);
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        code: 400,
        status: 'error',
        message: 'missing required query parameter companyCode',
      });
      const wrong = await bank.get(`${path}?companyCode=CMP-OTHER`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe("unknown companyCode 'CMP-OTHER'");
    },
  );

  it('requires the bearer token (HB header set)', async () => {
    const { authorization: _drop, ...noToken } = headerSets(sandbox).HB('x');
    const res = await raw(sandbox, 'GET', `${BANKING}/accounts?companyCode=${COMPANY}`, { headers: noToken });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('missing required header Authorization');
    const bad = await raw(sandbox, 'GET', `${BANKING}/accounts?companyCode=${COMPANY}`, {
      headers: { ...noToken, authorization: 'Bearer expired.or.forged' },
    });
    expect(bad.status).toBe(401);
  });
});

describe('account detail', () => {
  it('adds company, issuance, bank-details and balance facts', async () => {
    const res = await bank.get(`/accounts/acc_eur_0001?companyCode=${COMPANY}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      accountId: 'acc_eur_0001',
      currency: 'EUR',
      iban: 'DE89370400440532013000',
      companyCode: COMPANY,
      programCode: sandbox.credentials.programCode,
      jurisdiction: 'EU',
      issuanceReference: 'ISS-EUR-0001',
      bankDetailsAvailable: true,
      balanceAvailable: true,
      balance: {
        status: 'ACTIVE',
        availableBalance: 120000,
        prepaidBalance: 0,
        marginBalance: 0,
        frozenBalance: 0,
        asOf: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      },
      balanceUnavailableReason: null,
      createdAt: '2026-01-06T09:30:00Z',
      updatedAt: '2026-01-06T09:30:00Z',
    });
  });

  it('shows an account whose bank details are not yet available with null coordinates', async () => {
    const res = await bank.get(`/accounts/acc_sgd_0001?companyCode=${COMPANY}`);
    expect(res.body.data).toMatchObject({
      bankDetailsAvailable: false,
      rails: [],
      accountNumber: null,
      accountNumberMasked: null,
      iban: null,
      swiftCode: null,
      routingNumber: null,
      sortCode: null,
      bankName: null,
      bankAddress: null,
    });
  });

  it('refuses an unknown account id with 400 naming it', async () => {
    for (const path of ['/accounts/acc_nope', '/accounts/acc_nope/balance']) {
      const res = await bank.get(`${path}?companyCode=${COMPANY}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 400, status: 'error', message: "account 'acc_nope' not found" });
    }
  });
});

describe('balances', () => {
  it('lists one entry per currency, JPY without accounts, USD shared by two accounts', async () => {
    const res = await bank.get(`/accounts/balances?companyCode=${COMPANY}`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    const data = res.body.data;
    expect(data.userId).toBe(sandbox.credentials.userId);
    expect(data.errors).toEqual([]);
    expect(data.balances.map((b: { currency: string }) => b.currency)).toEqual([
      'USD',
      'EUR',
      'GBP',
      'SGD',
      'JPY',
    ]);
    expect(data.balances[0]).toMatchObject({
      currency: 'USD',
      accountIds: ['acc_usd_0001', 'acc_usd_0002'],
      status: 'ACTIVE',
      availableBalance: 250000,
      prepaidBalance: 0,
      marginBalance: 0,
      frozenBalance: 0,
    });
    expect(data.balances[4]).toEqual({
      currency: 'JPY',
      accountIds: [],
      status: 'ACTIVE',
      availableBalance: 0,
      prepaidBalance: 0,
      marginBalance: 0,
      frozenBalance: 0,
      asOf: null,
    });
  });

  it('reports the currency balance for an account: two USD accounts show the same, unsummed balance', async () => {
    const a = await bank.get(`/accounts/acc_usd_0001/balance?companyCode=${COMPANY}`);
    const b = await bank.get(`/accounts/acc_usd_0002/balance?companyCode=${COMPANY}`);
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ currency: 'USD', availableBalance: 250000 });
    expect(b.body.data).toEqual(a.body.data);
    const gbp = await bank.get(`/accounts/acc_gbp_0001/balance?companyCode=${COMPANY}`);
    expect(gbp.body.data).toMatchObject({
      currency: 'GBP',
      accountIds: ['acc_gbp_0001'],
      availableBalance: 80000,
    });
  });
});
