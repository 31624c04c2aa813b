import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { raw } from '../helpers/sandbox.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(async () => {
  await core.close();
});
beforeEach(async () => {
  await raw(core.sandbox, 'POST', '/_sandbox/reset');
});

type Wallet = { id: string; currency: string; amount: number; status: string };
type Txn = { genericSlNo: number; wallet_id: string; initiatedAt: string };

describe('family A wallets', () => {
  it('list_wallets_a shows the seeded wallets with balances', async () => {
    const { wallets } = await core.ok('list_wallets_a', { cardholderId: 'cha_demo_ava' });
    expect((wallets as Wallet[]).map((w) => [w.id, w.currency, w.amount])).toEqual([
      ['wal_demo_ava_usd', 'USD', 3531.55],
      ['wal_demo_ava_eur', 'EUR', 5000],
    ]);
  });

  it('create_wallet_a opens an empty wallet that list_wallets_a then lists', async () => {
    const { wallet } = await core.ok('create_wallet_a', { cardholderId: 'cha_demo_chloe', currency: 'SGD' });
    expect(wallet).toMatchObject({ currency: 'SGD', amount: 0, status: 'ACTIVE' });
    const { wallets } = await core.ok('list_wallets_a', { cardholderId: 'cha_demo_chloe' });
    expect(wallets).toEqual([wallet]);
  });

  it('create_wallet_a: a lower-case currency is invalid, an unknown cardholder failed', async () => {
    const invalid = await core.call('create_wallet_a', { cardholderId: 'cha_demo_chloe', currency: 'sgd' });
    expect(invalid).toMatchObject({ status: 'invalid', errors: [{ path: 'currency' }] });
    const failed = await core.call('create_wallet_a', { cardholderId: 'cha_nobody', currency: 'SGD' });
    expect(failed).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'issuingA.createWallet' },
    });
    const { wallets } = await core.ok('list_wallets_a', { cardholderId: 'cha_demo_chloe' });
    expect(wallets).toEqual([]);
  });

  it('get_wallet_history_a pages newest first and filters by date', async () => {
    const ids = { cardholderId: 'cha_demo_ava', walletId: 'wal_demo_ava_usd' };
    const first = await core.ok('get_wallet_history_a', { ...ids, size: 5 });
    expect((first.transactions as Txn[]).map((t) => t.genericSlNo)).toEqual([1025, 1024, 1023, 1022, 1021]);
    const second = await core.ok('get_wallet_history_a', { ...ids, size: 5, page: 2 });
    expect((second.transactions as Txn[]).map((t) => t.genericSlNo)).toEqual([1020, 1019, 1018, 1017, 1016]);
    // One item every three days from 2026-08-01T10:00:00: 08-01, 08-04 and 08-07 up to 08-07 inclusive.
    const early = await core.ok('get_wallet_history_a', {
      ...ids,
      from_date: '2026-08-01',
      to_date: '2026-08-07',
    });
    expect((early.transactions as Txn[]).map((t) => t.genericSlNo)).toEqual([1003, 1002, 1001]);
  });

  it("get_wallet_history_a: another cardholder's wallet is failed, a bad date invalid", async () => {
    const failed = await core.call('get_wallet_history_a', {
      cardholderId: 'cha_demo_ben',
      walletId: 'wal_demo_ava_usd',
    });
    expect(failed).toMatchObject({ status: 'failed', error: { kind: 'service', httpStatus: 400 } });
    if (failed.status === 'failed') expect(failed.error.message.length).toBeGreaterThan(0);
    const invalid = await core.call('get_wallet_history_a', {
      cardholderId: 'cha_demo_ava',
      walletId: 'wal_demo_ava_usd',
      from_date: '01.08.2026',
    });
    expect(invalid).toMatchObject({
      status: 'invalid',
      errors: [{ path: 'from_date', message: 'must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS' }],
    });
  });
});

describe('family A KYC and RFI', () => {
  it('get_kyc_a shows completed and pending KYC', async () => {
    const ava = await core.ok('get_kyc_a', { cardholderId: 'cha_demo_ava' });
    expect(ava.kyc).toMatchObject({ kycStatus: 'COMPLETED', complianceStatus: 'COMPLETED', kycLink: '' });
    const ben = await core.ok('get_kyc_a', { cardholderId: 'cha_demo_ben' });
    expect(ben.kyc).toMatchObject({
      kycStatus: 'PENDING',
      complianceStatus: 'IN_PROGRESS',
      email: 'ben.okafor@demo.bankops.test',
    });
  });

  it('get_rfi_a tells an open request from none', async () => {
    const ben = await core.ok('get_rfi_a', { cardholderId: 'cha_demo_ben' });
    expect(ben).toMatchObject({
      open: true,
      rfi: {
        services_declined_codes: { address: ['ADDRESS_PROOF_EXPIRED'], document: ['DOCUMENT_UNREADABLE'] },
      },
    });
    const ava = await core.ok('get_rfi_a', { cardholderId: 'cha_demo_ava' });
    expect(ava.open).toBe(false);
  });

  it('respond_rfi_a returns the submission link, the same one on a repeat', async () => {
    const first = await core.ok('respond_rfi_a', { cardholderId: 'cha_demo_ben' });
    const link = (first.kyc as { kycLink: string }).kycLink;
    expect(link).toMatch(/^https:\/\//);
    const again = await core.ok('respond_rfi_a', { cardholderId: 'cha_demo_ben' });
    expect((again.kyc as { kycLink: string }).kycLink).toBe(link);
  });

  it('respond_rfi_a without an open RFI still returns a submission link and opens nothing; a blank id invalid', async () => {
    const out = await core.ok('respond_rfi_a', { cardholderId: 'cha_demo_ava' });
    expect(out.kyc).toMatchObject({
      kycStatus: 'COMPLETED',
      kycLink: expect.stringMatching(/^https:\/\/\S*cha_demo_ava/),
    });
    expect(await core.ok('get_rfi_a', { cardholderId: 'cha_demo_ava' })).toMatchObject({ open: false });
    expect((await core.ok('get_kyc_a', { cardholderId: 'cha_demo_ava' })).kyc).toMatchObject({ kycLink: '' });

    const unknown = await core.call('respond_rfi_a', { cardholderId: 'cha_nobody' });
    expect(unknown).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'issuingA.respondRfi' },
    });
    const blank = await core.call('get_kyc_a', { cardholderId: '  ' });
    expect(blank).toMatchObject({ status: 'invalid', errors: [{ path: 'cardholderId' }] });
  });
});
