import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, issuingA } from '../helpers/issuing-a.js';
import { deliveries, notify } from '../helpers/notifications.js';
import { type RunningSandbox, raw, startTestSandbox, tokenFor } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let ia: ReturnType<typeof issuingA>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  ia = issuingA(sandbox, await tokenFor(sandbox));
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

async function refused(res: Promise<{ status: number; body: { message: string } }>, ...fragments: string[]) {
  const r = await res;
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ status: 'error', code: 400 });
  for (const fragment of fragments) expect(r.body.message).toContain(fragment);
}

const WALLET_FIELDS = [
  'id',
  'currency',
  'amount',
  'holdingCurrency',
  'holdingAmount',
  'dailyLimitAmount',
  'weeklyLimitAmount',
  'monthlyLimitAmount',
  'yearlyLimitAmount',
  'totalLimitAmount',
  'status',
  'createdAt',
];
const HISTORY_FIELDS = [
  'genericSlNo',
  'slNo',
  'wallet_id',
  'programCode',
  'txn_currency',
  'txn_amount',
  'available_amount',
  'available_currency',
  'acquirer_amount',
  'acquirer_currency',
  'txn_type',
  'txn_direction',
  'txn_ref_id',
  'txn_email',
  'txn_description',
  'txn_status',
  'card_acceptor_name',
  'card_id',
  'initiated_by',
  'settle_amount',
  'settle_currency',
  'billing_amount',
  'billing_currency',
  'initiatedAt',
  'updatedAt',
];

describe('issuing A: wallets', () => {
  const asChloe = { 'x-cardholder-id': DEMO.chloe };

  it('creates a wallet (200, data [Wallet]) without a bearer token', async () => {
    const res = await ia.post('/wallet', { currency: 'SGD' }, { ...asChloe, authorization: undefined });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    expect(res.body.data).toHaveLength(1);
    const wallet = res.body.data[0];
    expect(Object.keys(wallet).sort()).toEqual([...WALLET_FIELDS].sort());
    expect(wallet).toMatchObject({ currency: 'SGD', amount: 0, holdingCurrency: 'SGD', status: 'ACTIVE' });
    for (const field of WALLET_FIELDS.filter((f) => f.endsWith('Amount') || f === 'amount')) {
      expect(typeof wallet[field]).toBe('number');
    }
    expect(wallet.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const list = await ia.get('/wallet', asChloe);
    expect(list.body.data).toEqual([wallet]);
  });

  it('replays a repeated x-request-id without a second wallet', async () => {
    const requestId = randomUUID();
    const first = await ia.post('/wallet', { currency: 'USD' }, { ...asChloe, 'x-request-id': requestId });
    const again = await ia.post('/wallet', { currency: 'USD' }, { ...asChloe, 'x-request-id': requestId });
    expect(again.body).toEqual(first.body);
    expect((await ia.get('/wallet', asChloe)).body.data).toHaveLength(1);
  });

  it('refuses a bad currency, a missing or unknown x-cardholder-id and a bad bearer token', async () => {
    await refused(ia.post('/wallet', { currency: 'usd' }, asChloe), 'currency: must be a 3-letter');
    await refused(ia.post('/wallet', {}, asChloe), 'currency: is required');
    await refused(ia.post('/wallet', { currency: 'USD' }), 'missing required header x-cardholder-id');
    await refused(
      ia.post('/wallet', { currency: 'USD' }, { 'x-cardholder-id': 'cha_nope' }),
      "cardholder 'cha_nope'",
    );
    const badToken = await ia.post(
      '/wallet',
      { currency: 'USD' },
      { ...asChloe, authorization: 'Bearer x.y.z' },
    );
    expect(badToken.status).toBe(401);
  });

  it('lists all wallets of the cardholder only', async () => {
    const res = await ia.get('/wallet', { 'x-cardholder-id': DEMO.ava });
    expect(res.status).toBe(200);
    expect(res.body.data.map((w: { id: string }) => w.id)).toEqual([DEMO.avaUsdWallet, DEMO.avaEurWallet]);
    expect(res.body.data[0]).toMatchObject({ currency: 'USD', amount: 3531.55 });
  });
});

describe('issuing A: wallet history', () => {
  const history = (query = '', wallet: string = DEMO.avaUsdWallet, cardholder: string = DEMO.ava) =>
    ia.get(`/wallet/history${query}`, { 'x-cardholder-id': cardholder, 'x-wallet-id': wallet });
  const serials = (res: { body: { data: { genericSlNo: number }[] } }) =>
    res.body.data.map((t) => t.genericSlNo);

  it('pages 25 seeded items newest first with every field of the spec', async () => {
    const first = await history();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'success', code: 200 });
    expect(serials(first)).toEqual([1025, 1024, 1023, 1022, 1021, 1020, 1019, 1018, 1017, 1016]);
    expect(serials(await history('?page=3'))).toEqual([1005, 1004, 1003, 1002, 1001]);
    expect((await history('?page=4')).body.data).toEqual([]);
    const all = await history('?size=100');
    expect(all.body.data).toHaveLength(25);
    for (const item of all.body.data as Record<string, unknown>[]) {
      for (const field of HISTORY_FIELDS) expect(item).toHaveProperty(field);
      expect(typeof item.acquirer_amount).toBe('string');
      expect(item.initiatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    }
    expect(all.body.data[0].available_amount).toBe(3531.55);
  });

  it('filters by date or date-time bounds (a bare to_date includes that day)', async () => {
    expect(serials(await history('?from_date=2026-08-01&to_date=2026-08-10'))).toEqual([
      1004, 1003, 1002, 1001,
    ]);
    expect(serials(await history('?from_date=2026-08-01T10:30:00&to_date=2026-08-10T12:59:59'))).toEqual([
      1003, 1002,
    ]);
    expect(serials(await history('?from_date=2026-10-12'))).toEqual([1025]);
  });

  it('refuses bad dates, a reversed range and bad paging', async () => {
    await refused(history('?from_date=2026/08/01'), 'from_date must be YYYY-MM-DD or yyyy-MM-ddTHH:mm:ss');
    await refused(history('?to_date=2026-08-01T25:00:00'), 'to_date');
    await refused(history('?from_date=2026-09-01&to_date=2026-08-01'), 'from_date must not be after to_date');
    await refused(history('?page=0'), 'page');
    await refused(history('?size=0'), 'size');
  });

  it('caps a size above 100 to 100 instead of refusing it', async () => {
    const res = await history('?size=500');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(25);
  });

  it('refuses a wallet of another cardholder, an unknown wallet and a missing x-wallet-id', async () => {
    await refused(
      history('', DEMO.benUsdWallet),
      `wallet '${DEMO.benUsdWallet}' does not belong to cardholder`,
    );
    await refused(history('', 'wal_nope'), "wallet 'wal_nope' not found");
    await refused(
      ia.get('/wallet/history', { 'x-cardholder-id': DEMO.ava }),
      'missing required header x-wallet-id',
    );
  });
});

describe('issuing A: KYC and RFI', () => {
  const kyc = (path: string, id: string) => ia.get(path, { 'x-cardholderHash-id': id });

  it('shows a completed KYC with an empty link', async () => {
    const res = await kyc('/kyc', DEMO.ava);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    expect(res.body.data).toEqual([
      {
        kycStatus: 'COMPLETED',
        kycLink: '',
        documentType: 'E_KYC',
        complianceStatus: 'COMPLETED',
        email: DEMO.avaEmail,
      },
    ]);
  });

  it('shows a pending KYC with a submission link, and its RFI details', async () => {
    const res = await kyc('/kyc', DEMO.ben);
    expect(res.body.data[0]).toMatchObject({ kycStatus: 'PENDING', complianceStatus: 'IN_PROGRESS' });
    expect(res.body.data[0].kycLink).toMatch(/^https:\/\//);
    const rfi = await kyc('/kyc/rfi', DEMO.ben);
    expect(rfi.status).toBe(200);
    expect(rfi.body.data).toEqual([
      {
        services_declined_codes: { address: ['ADDRESS_PROOF_EXPIRED'], document: ['DOCUMENT_UNREADABLE'] },
        declined_reason: expect.stringContaining('Proof of address'),
      },
    ]);
    const none = await kyc('/kyc/rfi', DEMO.ava);
    expect(none.body.data).toEqual([
      { services_declined_codes: { address: [], document: [] }, declined_reason: '' },
    ]);
  });

  it('responds to an RFI with a document-submission link, the same on a repeat', async () => {
    const res = await kyc('/kyc/rfi/respond', DEMO.ben);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const view = res.body.data[0];
    expect(view).toMatchObject({
      kycStatus: 'PENDING',
      documentType: 'E_KYC',
      email: 'ben.okafor@demo.bankops.test',
    });
    expect(view.kycLink).toContain(`/rfi/${DEMO.ben}/`);
    const again = await kyc('/kyc/rfi/respond', DEMO.ben);
    expect(again.body.data[0].kycLink).toBe(view.kycLink);
    expect((await kyc('/kyc', DEMO.ben)).body.data[0].kycLink).toBe(view.kycLink);
  });

  it('answers a respond without an open RFI with the KYC view and a link, emitting no event', async () => {
    const c = sandbox.credentials;
    const sub = await notify(sandbox, 'POST', '/subscribe', {
      event_name: 'kyc_rfi_responded',
      subscription_type: 'n',
      agent_code: c.agentCode,
      subagent_code: c.subagentCode,
      program_code: c.programCode,
      company_code: c.companyId,
      created_by: 'issuing-a-test',
    });
    expect(sub.status).toBe(200);

    for (const id of [DEMO.ava, DEMO.chloe]) {
      const res = await kyc('/kyc/rfi/respond', id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ status: 'success', code: 200 });
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({ documentType: 'E_KYC', email: expect.any(String) });
      expect(res.body.data[0].kycLink).toMatch(/^https:\/\/\S+/);
    }
    // Ava's KYC is complete: /kyc still shows no link, the respond endpoint hands one out anyway.
    expect((await kyc('/kyc', DEMO.ava)).body.data[0]).toMatchObject({ kycStatus: 'COMPLETED', kycLink: '' });
    expect(await deliveries(sandbox)).toEqual([]);

    // With an open RFI the event is emitted.
    expect((await kyc('/kyc/rfi/respond', DEMO.ben)).status).toBe(200);
    expect((await deliveries(sandbox)).map((d) => d.event_name)).toEqual(['kyc_rfi_responded']);
  });

  it('refuses an unknown cardholder and a missing header', async () => {
    await refused(kyc('/kyc/rfi/respond', 'cha_nope'), "cardholder 'cha_nope' not found");
    await refused(kyc('/kyc', 'cha_nope'), "cardholder 'cha_nope' not found");
    await refused(ia.get('/kyc'), 'missing required header x-cardholderHash-id');
  });

  it('completes KYC through the sandbox control endpoint', async () => {
    const done = await raw(sandbox, 'POST', '/_sandbox/issuing-a/kyc/complete', {
      headers: { 'content-type': 'application/json' },
      body: { cardholderId: DEMO.ben },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ cardholderId: DEMO.ben, kycStatus: 'COMPLETED' });
    expect((await kyc('/kyc', DEMO.ben)).body.data[0]).toMatchObject({ kycStatus: 'COMPLETED', kycLink: '' });
    const holder = (await ia.get(`/card/cardholder?id=${DEMO.ben}`)).body.data[0];
    expect(holder).toMatchObject({ kyc_status: 'COMPLETED', status: 'SUCCESS' });
    const unknown = await raw(sandbox, 'POST', '/_sandbox/issuing-a/kyc/complete', {
      headers: { 'content-type': 'application/json' },
      body: { cardholderId: 'cha_nope' },
    });
    expect(unknown.status).toBe(400);
  });
});
