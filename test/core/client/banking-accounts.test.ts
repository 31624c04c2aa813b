import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/core/client/index.js';
import { ServiceError } from '../../../src/core/client/index.js';
import { rejectionOf } from '../../helpers/client-http.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

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

const company = () => ({ companyCode: sandbox.credentials.companyId });

describe('accounts client', () => {
  it('lists the seeded accounts, filtered and paged', async () => {
    const all = await client.accounts.list(company());
    expect(all.total).toBe(5);
    expect(all.items.map((a) => a.accountId)).toEqual([
      'acc_usd_0001',
      'acc_usd_0002',
      'acc_eur_0001',
      'acc_gbp_0001',
      'acc_sgd_0001',
    ]);
    expect(all.items[0]).toMatchObject({
      currency: 'USD',
      paymentMethod: 'SWIFT',
      status: 'ACTIVE',
      rails: ['swift'],
      accountOwnerName: 'Demo Trading Pte. Ltd.',
      iban: null,
    });
    expect(all.items[4]?.rails).toEqual([]);

    const usd = await client.accounts.list({ ...company(), currency: 'USD' });
    expect(usd.items.map((a) => a.accountId)).toEqual(['acc_usd_0001', 'acc_usd_0002']);

    const page = await client.accounts.list({ ...company(), pageNumber: 2, pageSize: 2 });
    expect(page).toMatchObject({ pageNumber: 2, pageSize: 2, total: 5 });
    expect(page.items.map((a) => a.accountId)).toEqual(['acc_eur_0001', 'acc_gbp_0001']);
  });

  it('reads an account detail with its balance', async () => {
    const usd = await client.accounts.get({ ...company(), accountId: 'acc_usd_0001' });
    expect(usd).toMatchObject({
      accountId: 'acc_usd_0001',
      companyCode: sandbox.credentials.companyId,
      programCode: sandbox.credentials.programCode,
      bankDetailsAvailable: true,
      balanceAvailable: true,
      accountNumber: '8337104527',
      routingNumber: '026073150',
      balanceUnavailableReason: null,
    });
    expect(usd.balance?.availableBalance).toBe(250_000);

    const pending = await client.accounts.get({ ...company(), accountId: 'acc_sgd_0001' });
    expect(pending.bankDetailsAvailable).toBe(false);
    expect(pending.accountNumber).toBeNull();
    expect(pending.bankName).toBeNull();
  });

  it('reads all balances, one per currency', async () => {
    const all = await client.accounts.balances(company());
    expect(all.userId).toBe(sandbox.credentials.userId);
    expect(all.errors).toEqual([]);
    expect(all.balances.map((b) => [b.currency, b.availableBalance])).toEqual([
      ['USD', 250_000],
      ['EUR', 120_000],
      ['GBP', 80_000],
      ['SGD', 40_000],
      ['JPY', 0],
    ]);
    const jpy = all.balances.find((b) => b.currency === 'JPY');
    expect(jpy?.accountIds).toEqual([]);
    expect(jpy?.asOf).toBeNull();
    expect(all.balances[0]?.accountIds).toEqual(['acc_usd_0001', 'acc_usd_0002']);
  });

  it("reads one account's balance: that of its currency, shared by its sibling accounts", async () => {
    const first = await client.accounts.balance({ ...company(), accountId: 'acc_usd_0001' });
    const second = await client.accounts.balance({ ...company(), accountId: 'acc_usd_0002' });
    expect(first).toMatchObject({ currency: 'USD', availableBalance: 250_000 });
    expect(second.availableBalance).toBe(first.availableBalance);
  });

  it('surfaces an unknown account or company as a service refusal naming it', async () => {
    const error = await rejectionOf(client.accounts.get({ ...company(), accountId: 'acc_nope' }));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      kind: 'service',
      httpStatus: 400,
      serviceCode: 400,
      operation: 'accounts.get',
    });
    expect((error as ServiceError).serviceMessage).toContain('acc_nope');

    const company400 = await rejectionOf(client.accounts.balances({ companyCode: 'CMP-OTHER' }));
    expect(company400).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'accounts.balances' });
  });

  it('encodes the account id as one path segment', async () => {
    const error = await rejectionOf(client.accounts.balance({ ...company(), accountId: '../balances' }));
    // Not routed to /accounts/balances: the service sees an unknown account id.
    expect(error).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'accounts.balance' });
  });

  it('refuses malformed queries before sending', async () => {
    const before = sandbox.stats()['accounts.list'] ?? 0;
    const error = await rejectionOf(client.accounts.list({ ...company(), pageSize: 2.5 }));
    expect(error).toMatchObject({ kind: 'invalid_request', operation: 'accounts.list' });
    expect((error as ServiceError).issues.join()).toContain('pageSize');
    const missing = await rejectionOf(client.accounts.list({ companyCode: '' }));
    expect((missing as ServiceError).issues.join()).toContain('companyCode');
    expect(sandbox.stats()['accounts.list'] ?? 0).toBe(before);
  });
});
