import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../src/core/client/index.js';
import type { CreateCardABody } from '../../../src/core/client/schemas/issuing-a.js';
import { FAKE_CONFIG, startRecordingServer } from '../../helpers/client-http.js';
import { cardholderABody } from '../../helpers/issuing-client.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

/** Seeded family A data (docs/sandbox/issuing-a.md). */
const AVA = 'cha_demo_ava';
const BEN = 'cha_demo_ben';
const AVA_EMAIL = 'ava.tan@demo.bankops.test';
const AVA_VIRTUAL_CARD = 'card_demo_ava_virtual';
const AVA_PHYSICAL_CARD = 'card_demo_ava_physical';
const AVA_USD_WALLET = 'wal_demo_ava_usd';
const AVA_EUR_WALLET = 'wal_demo_ava_eur';
const STOCK_USD = { number: '5300001000000012', activationCode: '739215' };

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

const agentCodes = () => ({
  agentCode: sandbox.credentials.agentCode,
  subagentCode: sandbox.credentials.subagentCode,
});

const virtualCard = (cardholderId: string): CreateCardABody => ({
  card_type: 'VIRTUAL',
  card_holder_id: cardholderId,
  created_by: 'client-test',
  request_id: randomUUID(),
  program: { purpose: 'COMMERCIAL' },
  authorization_controls: {
    allowed_transaction_count: 'MULTIPLE',
    transaction_limits: { currency: 'USD', limits: [{ amount: 500, interval: 'PER_TRANSACTION' }] },
  },
  is_personalized: false,
});

describe('issuing family A client: cardholders', () => {
  it('creates a cardholder and reads it back by id and by email', async () => {
    const body = cardholderABody();
    const created = await client.issuingA.createCardholder(agentCodes(), body);
    expect(created.id).toMatch(/\S/);

    const byId = await client.issuingA.getCardholder({ id: created.id });
    expect(byId).toMatchObject({
      id: created.id,
      email: body.email,
      mobile_number: body.mobile_number,
      country_code: 'SG',
      type: 'INDIVIDUAL',
      individual: {
        date_of_birth: '1992-03-14',
        name: { first_name: 'Dana', last_name: 'Lim' },
        address: { line1: '1 Raffles Place', city: 'Singapore', country: 'SG' },
      },
    });
    expect(byId.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const byEmail = await client.issuingA.getCardholder({ email: body.email });
    expect(byEmail.id).toBe(created.id);
  });

  it('reads a seeded cardholder by email', async () => {
    const ava = await client.issuingA.getCardholder({ email: AVA_EMAIL });
    expect(ava).toMatchObject({ id: AVA, status: 'SUCCESS', individual: { name: { last_name: 'Tan' } } });
  });

  it('gives the same cardholder for a repeated request id, and creates one only', async () => {
    const body = cardholderABody();
    const requestId = randomUUID();
    const first = await client.issuingA.createCardholder(agentCodes(), body, { requestId });
    const again = await client.issuingA.createCardholder(agentCodes(), body, { requestId });
    expect(again.id).toBe(first.id);
    expect((await client.issuingA.listCardholders()).totalcount).toBe(4);
  });

  it('lists cardholders with totalcount, a status filter and pages', async () => {
    const all = await client.issuingA.listCardholders();
    expect(all.totalcount).toBe(3);
    expect(all.cardholders.map((c) => c.id).sort()).toEqual([AVA, BEN, 'cha_demo_chloe']);

    const pending = await client.issuingA.listCardholders({ status: 'PENDING' });
    expect(pending.totalcount).toBe(1);
    expect(pending.cardholders[0]?.id).toBe(BEN);

    const page2 = await client.issuingA.listCardholders({ page_num: 2, page_size: 2 });
    expect(page2.totalcount).toBe(3);
    expect(page2.cardholders).toHaveLength(1);
  });

  it('updates mobile number with country code, and the address, answering without data', async () => {
    const ack = await client.issuingA.updateCardholder(
      { cardholderId: BEN },
      {
        mobile_number: '7700900999',
        country_code: 'GB',
        individual: {
          address: {
            line1: '1 Abbey Road',
            city: 'London',
            state: 'Greater London',
            country: 'GB',
            postcode: 'NW8 9AY',
          },
        },
        updated_by: 'client-test',
      },
    );
    expect(ack).toEqual({
      status: expect.stringMatching(/^success$/i),
      message: expect.any(String),
      code: 200,
    });
    const ben = await client.issuingA.getCardholder({ id: BEN });
    expect(ben.mobile_number).toBe('7700900999');
    expect(ben.individual.address).toMatchObject({ line1: '1 Abbey Road', postcode: 'NW8 9AY' });
  });
});

describe('issuing family A client: cards', () => {
  it('creates a virtual card, whose transaction list starts empty', async () => {
    const card = await client.issuingA.createCard(virtualCard(BEN));
    expect(card.id).toMatch(/\S/);
    const page = await client.issuingA.listCardTransactions({ cardId: card.id });
    expect(page).toEqual({ has_more: false, items: [] });
  });

  it('assigns a physical card from stock, activates it with its code and PIN, then resets the PIN', async () => {
    const assigned = await client.issuingA.assignCard({
      cardholder_id: BEN,
      card_number: STOCK_USD.number,
      card_currency: 'USD',
      card_mode: 'SINGLE',
      createdBy: 'client-test',
    });
    expect(assigned.card_id).toMatch(/\S/);

    const activated = await client.issuingA.activateCard(
      { cardId: assigned.card_id },
      { activation_code: STOCK_USD.activationCode, pin: '2468' },
    );
    expect(activated).toMatchObject({ status: expect.stringMatching(/^success$/i), code: 200 });

    const reset = await client.issuingA.resetPin({ cardId: assigned.card_id }, { pin: '8642' });
    expect(reset).toMatchObject({ status: expect.stringMatching(/^success$/i), code: 200 });
  });

  it('resets the PIN of the seeded active physical card', async () => {
    const reset = await client.issuingA.resetPin({ cardId: AVA_PHYSICAL_CARD }, { pin: '9753' });
    expect(reset.code).toBe(200);
    expect(reset.message).not.toContain('9753');
  });

  it('pages the seeded card transactions and filters them by a date range', async () => {
    const first = await client.issuingA.listCardTransactions(
      { cardId: AVA_VIRTUAL_CARD },
      { page_num: 1, page_size: 5 },
    );
    expect(first.has_more).toBe(true);
    expect(first.items).toHaveLength(5);
    for (const item of first.items) expect(item.card_id).toBe(AVA_VIRTUAL_CARD);

    const last = await client.issuingA.listCardTransactions(
      { cardId: AVA_VIRTUAL_CARD },
      { page_num: 3, page_size: 5 },
    );
    expect(last.has_more).toBe(false);
    expect(last.items).toHaveLength(2);

    const none = await client.issuingA.listCardTransactions(
      { cardId: AVA_VIRTUAL_CARD },
      { from_created_at: '2020-01-01', to_created_at: '2020-12-31' },
    );
    expect(none.items).toEqual([]);
  });
});

describe('issuing family A client: wallets', () => {
  it('creates a wallet and lists it among the cardholder wallets', async () => {
    const wallet = await client.issuingA.createWallet({ cardholderId: BEN }, { currency: 'EUR' });
    expect(wallet).toMatchObject({ currency: 'EUR', amount: 0, status: 'ACTIVE' });
    const wallets = await client.issuingA.listWallets({ cardholderId: BEN });
    expect(wallets.map((w) => w.id)).toContain(wallet.id);
  });

  it('lists the seeded wallets of a cardholder', async () => {
    const wallets = await client.issuingA.listWallets({ cardholderId: AVA });
    expect(wallets.map((w) => w.id).sort()).toEqual([AVA_EUR_WALLET, AVA_USD_WALLET]);
  });

  it('pages the seeded wallet history', async () => {
    const ref = { cardholderId: AVA, walletId: AVA_USD_WALLET };
    const first = await client.issuingA.walletHistory(ref);
    expect(first).toHaveLength(10);
    for (const item of first) expect(item.wallet_id).toBe(AVA_USD_WALLET);
    const third = await client.issuingA.walletHistory(ref, { page: 3, size: 10 });
    expect(third).toHaveLength(5);
    const old = await client.issuingA.walletHistory(ref, { from_date: '2020-01-01', to_date: '2020-01-31' });
    expect(old).toEqual([]);
  });
});

describe('issuing family A client: KYC', () => {
  it('shows completed KYC without a link and pending KYC with one', async () => {
    const ava = await client.issuingA.getKyc({ cardholderHashId: AVA });
    expect(ava).toMatchObject({ kycStatus: 'COMPLETED', complianceStatus: 'COMPLETED', kycLink: '' });
    const ben = await client.issuingA.getKyc({ cardholderHashId: BEN });
    expect(ben).toMatchObject({ kycStatus: 'PENDING', email: 'ben.okafor@demo.bankops.test' });
    expect(ben.kycLink).toMatch(/^https:\/\//);
  });

  it('reads the RFI details and responds with a document link', async () => {
    const rfi = await client.issuingA.getRfi({ cardholderHashId: BEN });
    expect(rfi?.services_declined_codes.address).toContain('ADDRESS_PROOF_EXPIRED');
    expect(rfi?.services_declined_codes.document).toContain('DOCUMENT_UNREADABLE');
    expect(rfi?.declined_reason).toMatch(/\S/);

    const responded = await client.issuingA.respondRfi({ cardholderHashId: BEN });
    expect(responded.kycLink).toMatch(/^https:\/\//);
  });
});

describe('issuing family A client: where the spec contradicts itself', () => {
  // The card create endpoint text gives `data` as an object, the envelope table as an array of one.
  it.each([
    ['an object', { id: 'card_obj' }, 'card_obj'],
    ['an array of one', [{ id: 'card_arr' }], 'card_arr'],
  ])('reads a card create answer whose data is %s', async (_shape, data, id) => {
    const token = {
      token: 't',
      tokenType: 'Bearer',
      expiresIn: 1800,
      userId: 'u',
      companyCode: 'c',
      email: 'e@x.y',
    };
    const fake = await startRecordingServer((request) =>
      request.url.endsWith('/auth/token')
        ? { status: 200, body: { code: 200, status: 'SUCCESS', message: 'ok', data: token } }
        : { status: 201, body: { status: 'success', message: 'Card created', code: 201, data } },
    );
    const client = createServiceClient({ ...FAKE_CONFIG, baseUrl: fake.url });
    try {
      expect(await client.issuingA.createCard(virtualCard('cha_1'))).toEqual({ id });
    } finally {
      await client.close();
      await fake.close();
    }
  });
});
