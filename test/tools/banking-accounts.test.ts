import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(async () => {
  await core.close();
});
beforeEach(() => core.sandbox.reset());

/** A JSON Web Token anywhere in a text: three base64url parts, the first starting `eyJ`. */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

describe('banking tools: credentials and user', () => {
  it('check_credentials reports whose credentials these are and never the token', async () => {
    const before = (await core.audit.head()).seq;
    const result = await core.call('check_credentials', {});
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.output).toEqual({
      tokenType: 'Bearer',
      expiresIn: 1800,
      userId: 'usr_demo_0001',
      companyCode: 'CMP-DEMO',
      email: 'treasury@demo.bankops.test',
    });
    expect(JSON.stringify(result)).not.toMatch(JWT);
    const entries = await core.audit.list({ afterSeq: before, tool: 'check_credentials' });
    expect(entries.length).toBeGreaterThan(0);
    expect(JSON.stringify(entries)).not.toMatch(JWT);
  });

  it('get_user finds the onboarded user by e-mail', async () => {
    const user = await core.ok('get_user', { email: 'treasury@demo.bankops.test' });
    expect(user).toMatchObject({
      userId: 'usr_demo_0001',
      companyCode: 'CMP-DEMO',
      businessName: 'Demo Trading Pte. Ltd.',
      entityType: 'COMPANY',
      kycStatus: 'APPROVED',
      status: 'ACTIVE',
    });
  });

  it('get_user refuses a malformed e-mail before calling, and passes on the service refusal of an unknown one', async () => {
    const malformed = await core.call('get_user', { email: 'not-an-address' });
    expect(malformed.status).toBe('invalid');
    if (malformed.status === 'invalid') expect(malformed.errors.map((e) => e.path)).toEqual(['email']);

    const unknown = await core.call('get_user', { email: 'nobody@example.test' });
    expect(unknown).toMatchObject({
      status: 'failed',
      error: { kind: 'service', httpStatus: 400, operation: 'users.get' },
    });
    if (unknown.status === 'failed')
      expect(unknown.error.message).toContain("no user with email 'nobody@example.test'");
  });
});

describe('banking tools: accounts and balances', () => {
  it('list_accounts lists every account of the configured company', async () => {
    const page = await core.ok('list_accounts', {});
    expect(page.total).toBe(5);
    expect(page.pageNumber).toBe(1);
    expect((page.accounts as { accountId: string }[]).map((a) => a.accountId).sort()).toEqual([
      'acc_eur_0001',
      'acc_gbp_0001',
      'acc_sgd_0001',
      'acc_usd_0001',
      'acc_usd_0002',
    ]);
    expect((page.accounts as { accountOwnerName: string }[])[0]?.accountOwnerName).toBe(
      'Demo Trading Pte. Ltd.',
    );
  });

  it('list_accounts filters by currency and pages', async () => {
    const usd = await core.ok('list_accounts', { currency: 'USD' });
    expect((usd.accounts as { accountId: string }[]).map((a) => a.accountId).sort()).toEqual([
      'acc_usd_0001',
      'acc_usd_0002',
    ]);
    const second = await core.ok('list_accounts', { pageNumber: 2, pageSize: 2 });
    expect(second).toMatchObject({ pageNumber: 2, pageSize: 2, total: 5 });
    expect(second.accounts).toHaveLength(2);
  });

  it('list_accounts names the field of a malformed currency', async () => {
    const result = await core.call('list_accounts', { currency: 'usd' });
    expect(result.status).toBe('invalid');
    if (result.status !== 'invalid') return;
    expect(result.errors).toEqual([{ path: 'currency', message: expect.stringContaining('3-letter') }]);
  });

  it('list_accounts passes on the refusal of a company the service does not know', async () => {
    const result = await core.call('list_accounts', { companyCode: 'CMP-OTHER' });
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'accounts.list' },
    });
    if (result.status === 'failed') expect(result.error.message).toContain("unknown companyCode 'CMP-OTHER'");
  });

  it('get_account shows bank coordinates, or says they are not available yet', async () => {
    const eur = await core.ok('get_account', { accountId: 'acc_eur_0001' });
    expect(eur).toMatchObject({
      accountId: 'acc_eur_0001',
      currency: 'EUR',
      companyCode: 'CMP-DEMO',
      iban: 'DE89370400440532013000',
      swiftCode: 'COBADEFFXXX',
      bankDetailsAvailable: true,
      balance: { availableBalance: 120000 },
    });
    const sgd = await core.ok('get_account', { accountId: 'acc_sgd_0001' });
    expect(sgd).toMatchObject({ bankDetailsAvailable: false, accountNumber: null, rails: [] });
  });

  it('get_account passes on the refusal of an unknown account', async () => {
    const result = await core.call('get_account', { accountId: 'acc_nope_0001' });
    expect(result.status).toBe('failed');
    if (result.status === 'failed') expect(result.error.message).toContain("'acc_nope_0001' not found");
  });

  it('get_balances gives one balance per currency with the accounts that share it', async () => {
    const { userId, balances } = await core.ok('get_balances', {});
    expect(userId).toBe('usr_demo_0001');
    const byCurrency = new Map(
      (balances as { currency: string; availableBalance: number; accountIds: string[] }[]).map((b) => [
        b.currency,
        b,
      ]),
    );
    expect(byCurrency.get('USD')).toMatchObject({
      availableBalance: 250000,
      accountIds: ['acc_usd_0001', 'acc_usd_0002'],
    });
    expect(byCurrency.get('EUR')?.availableBalance).toBe(120000);
    expect(byCurrency.get('JPY')).toMatchObject({ availableBalance: 0, accountIds: [] });
  });

  it('get_account_balance gives the shared balance of the account currency', async () => {
    const first = await core.ok('get_account_balance', { accountId: 'acc_usd_0001' });
    const second = await core.ok('get_account_balance', { accountId: 'acc_usd_0002' });
    expect(first).toMatchObject({ currency: 'USD', availableBalance: 250000 });
    // The same balance, not two: adding them would double-count (the description says so).
    expect(second).toEqual(first);
    const gbp = await core.ok('get_account_balance', { accountId: 'acc_gbp_0001' });
    expect(gbp).toMatchObject({ currency: 'GBP', availableBalance: 80000 });
  });
});
