import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ibCall, ibControl, newCardSetup, SEED } from '../helpers/issuing-b.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const aliceCard = { holder: SEED.alice.id, wallet: SEED.alice.wallet, card: SEED.alice.virtual };
const brunoCard = { holder: SEED.bruno.id, wallet: SEED.bruno.wallet, card: SEED.bruno.virtual };

const expectRefused = (res: { status: number; body: { code: number; status: string; message: string } }) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 400, status: 'error' });
  return res.body.message;
};

describe('issuing B: PIN links', () => {
  it('hands out set, reset and change PIN iframe URLs and marks the PIN as set', async () => {
    const { holder, wallet, card } = await newCardSetup(sandbox);
    const ids = { holder, wallet, card };
    // A change link is handed out even before a PIN is set (the iframe handles that case) and
    // does not mark the PIN set.
    const change = await ibCall(sandbox, 'GET', '/card/changepin', { ids });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect(change.body.data[0].set_pin_url).toMatch(/^https:\/\/cards\.sandbox\.invalid\/pin\/change\//);
    expect((await ibCall(sandbox, 'GET', '/card/details', { ids })).body.data[0].is_pin_set).toBe(false);

    const set = await ibCall(sandbox, 'GET', '/card/setpin', { ids });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ status: 'success', code: 200 });
    expect(set.body.data[0].set_pin_url).toMatch(/^https:\/\/cards\.sandbox\.invalid\/pin\/set\//);
    const details = await ibCall(sandbox, 'GET', '/card/details', { ids });
    expect(details.body.data[0].is_pin_set).toBe(true);

    const reset = await ibCall(sandbox, 'GET', '/card/resetpin', { ids });
    expect(reset.body.data[0].set_pin_url).toMatch(/\/pin\/reset\//);
    const changed = await ibCall(sandbox, 'GET', '/card/changepin', { ids });
    expect(changed.body.data[0].set_pin_url).toMatch(/\/pin\/change\//);
  });

  it('requires all three identity headers', async () => {
    const res = await ibCall(sandbox, 'GET', '/card/setpin', {
      ids: { holder: SEED.alice.id, wallet: SEED.alice.wallet },
    });
    expect(expectRefused(res)).toContain('missing required header x-card-id');
  });
});

describe('issuing B: 3D Secure', () => {
  it('runs the unenroll, enroll, read, update cycle', async () => {
    const ids = aliceCard;
    const read = await ibCall(sandbox, 'GET', '/card/3DS', { ids });
    expect(read.body).toMatchObject({ status: 'success', code: 200 });
    expect(read.body.data).toEqual([
      { otp_delivery_method: 'EMAIL', destination: SEED.alice.email, status: 'ACTIVE' },
    ]);

    const off = await ibCall(sandbox, 'DELETE', '/card/3DS', { ids });
    expect(off.body).toMatchObject({ code: 200, data: [] });
    expect((await ibCall(sandbox, 'GET', '/card/3DS', { ids })).body.data).toEqual([]);
    expect(expectRefused(await ibCall(sandbox, 'DELETE', '/card/3DS', { ids }))).toContain(
      'not enrolled in 3DS',
    );
    const patchOff = await ibCall(sandbox, 'PATCH', '/card/3DS', {
      ids,
      body: { otp_delivery_method: 'SMS' },
    });
    expect(expectRefused(patchOff)).toContain('not enrolled in 3DS');

    const on = await ibCall(sandbox, 'POST', '/card/3DS', { ids, body: { otp_delivery_method: 'SMS' } });
    expect(on.body).toMatchObject({ code: 200, data: [] });
    const sms = await ibCall(sandbox, 'GET', '/card/3DS', { ids });
    expect(sms.body.data).toEqual([
      { otp_delivery_method: 'SMS', destination: '+6591234567', status: 'ACTIVE' },
    ]);

    const update = await ibCall(sandbox, 'PATCH', '/card/3DS', {
      ids,
      body: { otp_delivery_method: 'EMAIL' },
    });
    expect(update.body).toMatchObject({ code: 200, data: [] });
    expect((await ibCall(sandbox, 'GET', '/card/3DS', { ids })).body.data[0].otp_delivery_method).toBe(
      'EMAIL',
    );

    const reEnroll = await ibCall(sandbox, 'POST', '/card/3DS', {
      ids,
      body: { otp_delivery_method: 'SMS' },
    });
    expect(reEnroll.status).toBe(200);
    expect((await ibCall(sandbox, 'GET', '/card/3DS', { ids })).body.data[0].otp_delivery_method).toBe('SMS');
  });

  it('shows the full SMS destination of the card holder for 3DS: +<mobileCountryCode><mobile>, unmasked', async () => {
    const res = await ibCall(sandbox, 'GET', '/card/3DS', { ids: brunoCard });
    expect(res.body.data[0]).toEqual({
      otp_delivery_method: 'SMS',
      destination: '+5511987654321',
      status: 'ACTIVE',
    });
    // It follows the cardholder's current details.
    await ibCall(sandbox, 'PATCH', '/cardholder', {
      ids: { hash: SEED.bruno.id },
      body: { mobileCountryCode: '44', mobile: '7700900123' },
    });
    const after = await ibCall(sandbox, 'GET', '/card/3DS', { ids: brunoCard });
    expect(after.body.data[0].destination).toBe('+447700900123');
  });

  it('shows the full registered e-mail as the EMAIL destination, unmasked', async () => {
    const res = await ibCall(sandbox, 'GET', '/card/3DS', { ids: aliceCard });
    expect(res.body.data[0]).toEqual({
      otp_delivery_method: 'EMAIL',
      destination: 'alice.tan@cards.demo.bankops.test',
      status: 'ACTIVE',
    });
  });

  it('refuses a missing or unknown OTP delivery method', async () => {
    const none = await ibCall(sandbox, 'POST', '/card/3DS', { ids: aliceCard, body: {} });
    expect(expectRefused(none)).toContain('otp_delivery_method: is required');
    const bad = await ibCall(sandbox, 'PATCH', '/card/3DS', {
      ids: aliceCard,
      body: { otp_delivery_method: 'PUSH' },
    });
    expect(expectRefused(bad)).toContain('otp_delivery_method: must be one of EMAIL, SMS');
  });
});

describe('issuing B: spend limits', () => {
  const patch = (body: unknown) => ibCall(sandbox, 'PATCH', '/card/limit', { ids: aliceCard, body });
  const limits = async () =>
    (await ibCall(sandbox, 'GET', '/card/limit', { ids: aliceCard })).body.data as {
      amount_limit: number;
      amount_limit_period: string;
      transaction_type: string;
    }[];

  it('replaces an existing limit and adds a new one', async () => {
    const res = await patch({
      amount_limit_period: 'DAY',
      amount_limit: 750,
      transaction_type: 'PURCHASE',
    });
    expect(res.body).toMatchObject({ status: 'success', code: 200, data: [] });
    const week = await patch({
      amount_limit_period: 'WEEK',
      amount_limit: 2000,
      transaction_type: 'PURCHASE',
    });
    expect(week.status).toBe(200);
    const items = await limits();
    const purchaseDay = items.filter(
      (l) => l.transaction_type === 'PURCHASE' && l.amount_limit_period === 'DAY',
    );
    expect(purchaseDay.map((l) => l.amount_limit)).toEqual([750]);
    expect(items).toHaveLength(9);
    const details = await ibCall(sandbox, 'GET', '/card/details', { ids: aliceCard });
    expect(details.body.data[0]).toMatchObject({ daily_spend_limit: '750', weekly_spend_limit: '2000' });
  });

  it('accepts ATM DAY and MONTH, refuses other ATM periods', async () => {
    expect(
      (
        await patch({
          amount_limit_period: 'DAY',
          amount_limit: 500,
          transaction_type: 'ATM_CASH_WITHDRAWAL',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await patch({
          amount_limit_period: 'MONTH',
          amount_limit: 900,
          transaction_type: 'ATM_CASH_WITHDRAWAL',
        })
      ).status,
    ).toBe(200);
    const week = await patch({
      amount_limit_period: 'WEEK',
      amount_limit: 500,
      transaction_type: 'ATM_CASH_WITHDRAWAL',
    });
    expect(expectRefused(week)).toContain('ATM_CASH_WITHDRAWAL limits support only DAY and MONTH periods');
    const atmDay = (await limits()).find(
      (l) => l.transaction_type === 'ATM_CASH_WITHDRAWAL' && l.amount_limit_period === 'DAY',
    );
    expect(atmDay?.amount_limit).toBe(500);
  });

  const badAmounts: [string, unknown][] = [
    ['zero', 0],
    ['negative', -5],
    ['decimal', 1.5],
    ['string', '100'],
  ];
  it.each(badAmounts)('refuses a %s amount_limit', async (_name, amount) => {
    const res = await patch({
      amount_limit_period: 'DAY',
      amount_limit: amount,
      transaction_type: 'PURCHASE',
    });
    expect(expectRefused(res)).toContain('amount_limit: must be an integer greater than 0');
  });

  it('refuses unknown periods and transaction types, naming each field', async () => {
    const res = await patch({ amount_limit_period: 'HOUR', amount_limit: 5, transaction_type: 'REFUND' });
    const message = expectRefused(res);
    expect(message).toContain(
      'amount_limit_period: must be one of DAY, WEEK, MONTH, YEAR, LIFETIME, TRANSACTION',
    );
    expect(message).toContain('transaction_type: must be one of PURCHASE, ATM_CASH_WITHDRAWAL');
  });
});

describe('issuing B: KYC', () => {
  it('shows a completed KYC without a link', async () => {
    const res = await ibCall(sandbox, 'GET', '/kyc', { ids: { hash: SEED.alice.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    expect(res.body.data).toEqual([
      {
        kycStatus: 'COMPLETED',
        kycLink: '',
        documentType: 'E_KYC',
        complianceStatus: 'COMPLETED',
        email: SEED.alice.email,
      },
    ]);
    // No open RFI: the same answer as family A, one element with nothing declined.
    const rfi = await ibCall(sandbox, 'GET', '/kyc/rfi', { ids: { hash: SEED.alice.id } });
    expect(rfi.status).toBe(200);
    expect(rfi.body.data).toEqual([
      { services_declined_codes: { address: [], document: [] }, declined_reason: '' },
    ]);
    // Respond without an open RFI: 200, the KYC view with a submission link.
    const respond = await ibCall(sandbox, 'GET', '/kyc/rfi/respond', { ids: { hash: SEED.alice.id } });
    expect(respond.status, JSON.stringify(respond.body)).toBe(200);
    expect(respond.body.data).toEqual([
      {
        kycStatus: 'COMPLETED',
        kycLink: expect.stringMatching(/^https:\/\/kyc\.sandbox\.invalid\/submit\//),
        documentType: 'E_KYC',
        complianceStatus: 'COMPLETED',
        email: SEED.alice.email,
      },
    ]);
    // /kyc keeps showing no link for a completed KYC.
    expect(
      (await ibCall(sandbox, 'GET', '/kyc', { ids: { hash: SEED.alice.id } })).body.data[0].kycLink,
    ).toBe('');
  });

  it('shows the pending KYC and RFI, answers it with a link, and completes it', async () => {
    const ids = { hash: SEED.bruno.id };
    const kyc = await ibCall(sandbox, 'GET', '/kyc', { ids, headers: { 'x-client-id': 'client-1' } });
    expect(kyc.body.data[0]).toMatchObject({ kycStatus: 'PENDING', complianceStatus: 'IN_PROGRESS' });
    expect(kyc.body.data[0].kycLink).toMatch(/^https:\/\/kyc\.sandbox\.invalid\/submit\//);

    const rfi = await ibCall(sandbox, 'GET', '/kyc/rfi', { ids });
    expect(rfi.body).toMatchObject({ status: 'success', code: 200 });
    expect(rfi.body.data[0]).toMatchObject({
      services_declined_codes: { address: ['ADDRESS_PROOF_EXPIRED'], document: ['DOCUMENT_IMAGE_BLURRED'] },
    });
    expect(typeof rfi.body.data[0].declined_reason).toBe('string');

    const respond = await ibCall(sandbox, 'GET', '/kyc/rfi/respond', { ids });
    expect(respond.status).toBe(200);
    expect(respond.body.data[0]).toMatchObject({ kycStatus: 'PENDING', email: SEED.bruno.email });
    expect(respond.body.data[0].kycLink).toMatch(/^https:\/\/kyc\.sandbox\.invalid\/submit\//);

    const done = await ibControl(sandbox, `/kyc/${SEED.bruno.id}/complete`);
    expect(done.body).toMatchObject({ cardholderId: SEED.bruno.id, kycStatus: 'COMPLETED' });
    const after = await ibCall(sandbox, 'GET', '/kyc', { ids });
    expect(after.body.data[0]).toMatchObject({
      kycStatus: 'COMPLETED',
      complianceStatus: 'COMPLETED',
      kycLink: '',
    });
    expect((await ibCall(sandbox, 'GET', '/kyc/rfi', { ids })).body.data).toEqual([
      { services_declined_codes: { address: [], document: [] }, declined_reason: '' },
    ]);
    expect((await ibControl(sandbox, `/kyc/${SEED.bruno.id}/complete`)).status).toBe(400);
  });

  it('starts a new cardholder without own provider in PENDING, one with a provider COMPLETED', async () => {
    const plain = await newCardSetup(sandbox);
    const pending = await ibCall(sandbox, 'GET', '/kyc', { ids: { hash: plain.holder } });
    expect(pending.body.data[0].kycStatus).toBe('PENDING');
    const own = await newCardSetup(sandbox, { kycProviderName: 'MYINFO', kycReferenceId: 'myinfo-1' });
    const completed = await ibCall(sandbox, 'GET', '/kyc', { ids: { hash: own.holder } });
    expect(completed.body.data[0].kycStatus).toBe('COMPLETED');
  });

  it('requires x-cardholderHash-id', async () => {
    const res = await ibCall(sandbox, 'GET', '/kyc', { ids: { holder: SEED.alice.id } });
    expect(expectRefused(res)).toContain('missing required header x-cardholderHash-id');
  });
});
