import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/core/client/index.js';
import { cardholderBBody } from '../../helpers/issuing-client.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

/** Seeded family B data (docs/sandbox/issuing-b.md). */
const ALICE = 'chb_demo_alice';
const BRUNO = 'chb_demo_bruno';
const CHLOE = 'chb_demo_chloe';
const ALICE_WALLET = { cardholderId: ALICE, walletId: 'wal_demo_alice_usd' };
const BRUNO_WALLET = { cardholderId: BRUNO, walletId: 'wal_demo_bruno_usd' };
const ALICE_VIRTUAL = { ...ALICE_WALLET, cardId: 'card_demo_alice_virtual' };
const ALICE_LOCKED = { ...ALICE_WALLET, cardId: 'card_demo_alice_locked' };
const ALICE_PHYSICAL = { ...ALICE_WALLET, cardId: 'card_demo_alice_physical' };
const BRUNO_VIRTUAL = { ...BRUNO_WALLET, cardId: 'card_demo_bruno_virtual' };
const BRUNO_EMAIL = 'bruno.silva@cards.demo.bankops.test';
const STOCK = { last4: '2468', code: 'K7Q2-9XMA' };

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

describe('issuing family B client: cardholders', () => {
  it('creates a cardholder, reads it, and updates it', async () => {
    const body = cardholderBBody();
    const created = await client.issuingB.createCardholder(agentCodes(), body);
    expect(created.id).toMatch(/\S/);

    const holder = await client.issuingB.getCardholder({ cardholderHashId: created.id });
    expect(holder).toMatchObject({
      id: created.id,
      firstName: 'Elena',
      lastName: 'Rossi',
      email: body.email,
      mobile: '91112222',
      deliveryCountry: 'SG',
      status: 'ACTIVE',
    });
    expect(holder.createAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const message = await client.issuingB.updateCardholder(
      { cardholderHashId: created.id },
      { preferredName: 'E ROSSI', deliveryAddress2: 'Unit 15-02' },
    );
    expect(message).toMatch(/updated/i);
    const updated = await client.issuingB.getCardholder({ cardholderHashId: created.id });
    expect(updated).toMatchObject({
      preferredName: 'E ROSSI',
      deliveryAddress2: 'Unit 15-02',
      lastName: 'Rossi',
    });
  });

  it('reactivates the seeded deactivated cardholder, restoring its wallet functions', async () => {
    expect((await client.issuingB.getCardholder({ cardholderHashId: CHLOE })).status).toBe('INACTIVE');
    const activated = await client.issuingB.activateCardholder({ cardholderHashId: CHLOE });
    expect(activated.status).toBe('ACTIVE');
    const wallets = await client.issuingB.listWallets({ cardholderId: CHLOE });
    expect(wallets.map((w) => w.id)).toEqual(['wal_demo_chloe_usd']);
  });
});

describe('issuing family B client: wallets', () => {
  it('creates a wallet for a new cardholder and lists it', async () => {
    const { id } = await client.issuingB.createCardholder(agentCodes(), cardholderBBody());
    const wallet = await client.issuingB.createWallet({ cardholderId: id }, { currency: 'USD' });
    expect(wallet).toMatchObject({ currency: 'USD', amount: 0, status: 'ACTIVE' });
    const wallets = await client.issuingB.listWallets({ cardholderId: id });
    expect(wallets.map((w) => w.id)).toEqual([wallet.id]);
  });

  it('reads the wallet history newest first, by page, by date and for one card', async () => {
    const first = await client.issuingB.walletHistory(ALICE_WALLET);
    expect(first).toHaveLength(10);
    expect(first[0]).toMatchObject({ txn_ref_id: 'txn_seed_alice_031', txn_type: 'fee_PERTXN' });
    for (const item of first) expect(item.wallet_id).toBe(ALICE_WALLET.walletId);

    const day = await client.issuingB.walletHistory(ALICE_WALLET, {
      from_date: '2026-10-15',
      to_date: '2026-10-15',
    });
    expect(day.map((t) => t.txn_type)).toEqual(['P2P']);

    const onCard = await client.issuingB.walletHistory(ALICE_LOCKED, { size: 100 });
    expect(onCard.length).toBeGreaterThan(0);
    for (const item of onCard) expect(item.card_id).toBe(ALICE_LOCKED.cardId);
  });

  it('transfers to another cardholder by e-mail, and both histories show it', async () => {
    const { id } = await client.issuingB.transfer(
      { cardholderId: ALICE },
      { email: BRUNO_EMAIL, amount: 25.5, description: 'coffee' },
    );
    expect(id).toMatch(/\S/);
    const [received] = await client.issuingB.walletHistory(BRUNO_WALLET, { size: 1 });
    expect(received).toMatchObject({
      txn_ref_id: id,
      txn_type: 'P2P',
      txn_direction: 'CREDIT',
      txn_amount: 25.5,
    });
    const [sent] = await client.issuingB.walletHistory(ALICE_WALLET, { size: 1 });
    expect(sent).toMatchObject({ txn_ref_id: id, txn_direction: 'DEBIT' });
  });
});

describe('issuing family B client: cards', () => {
  it('creates a virtual card and finds it in the card list', async () => {
    const { cardId } = await client.issuingB.createCard(ALICE_WALLET, {
      card_type: 'virtual',
      is_primary: 'false',
    });
    const list = await client.issuingB.listCards(ALICE_WALLET, { size: 100 });
    expect(list.total_count).toBe(5);
    expect(list.cards.find((c) => c.cardId === cardId)).toMatchObject({
      cardType: 'VIRTUAL',
      cardStatus: 'ACTIVE',
    });
  });

  it('pages the card list', async () => {
    const page = await client.issuingB.listCards(ALICE_WALLET, { page: 2, size: 3 });
    expect(page).toMatchObject({ total_count: 4, page: 2, total_pages: 2 });
    expect(page.cards).toHaveLength(1);
  });

  it('assigns a physical card from stock by last four digits and code; it is active', async () => {
    const { cardId } = await client.issuingB.assignCard(BRUNO_WALLET, {
      last_four_digit: STOCK.last4,
      code: STOCK.code,
    });
    const details = await client.issuingB.getCardDetails({ ...BRUNO_WALLET, cardId });
    expect(details).toMatchObject({ card_type: 'PHYSICAL', status: 'ACTIVE' });
    expect(details.truncated_card_number.endsWith(STOCK.last4)).toBe(true);
  });

  it('activates the seeded INACTIVE physical card', async () => {
    expect(await client.issuingB.activateCard(ALICE_PHYSICAL)).toMatchObject({ status: 'ACTIVE' });
    expect((await client.issuingB.getCardDetails(ALICE_PHYSICAL)).status).toBe('ACTIVE');
  });

  it('reads the card details with masked number and default limits', async () => {
    const details = await client.issuingB.getCardDetails(ALICE_VIRTUAL);
    expect(details).toMatchObject({
      card_type: 'VIRTUAL',
      status: 'ACTIVE',
      is_pin_set: true,
      card_is_primary: true,
      daily_spend_limit: '500000',
    });
    expect(details.truncated_card_number).toMatch(/\*/);
    expect(details.truncated_card_number.replace(/\s/g, '').endsWith('4821')).toBe(true);
  });

  it('hands out the card details link', async () => {
    const token = await client.issuingB.getCardToken(ALICE_VIRTUAL);
    expect(token.url).toMatch(/^https:\/\//);
  });

  it('reads and changes the card-present configuration', async () => {
    expect(await client.issuingB.getCardConfiguration(ALICE_VIRTUAL)).toEqual({
      card_present_transaction_enabled: true,
    });
    const changed = await client.issuingB.updateCardConfiguration(ALICE_VIRTUAL, {
      card_present_transaction_enabled: false,
    });
    expect(changed.card_present_transaction_enabled).toBe(false);
    expect((await client.issuingB.getCardConfiguration(ALICE_VIRTUAL)).card_present_transaction_enabled).toBe(
      false,
    );
  });

  it('locks a card and sets the locked card ACTIVE again', async () => {
    expect(await client.issuingB.updateCardStatus(ALICE_VIRTUAL, { status: 'LOCKED' })).toMatchObject({
      status: 'LOCKED',
    });
    expect(await client.issuingB.updateCardStatus(ALICE_LOCKED, { status: 'ACTIVE' })).toMatchObject({
      status: 'ACTIVE',
    });
    const list = await client.issuingB.listCards(ALICE_WALLET);
    const status = (id: string) => list.cards.find((c) => c.cardId === id)?.cardStatus;
    expect(status(ALICE_VIRTUAL.cardId)).toBe('LOCKED');
    expect(status(ALICE_LOCKED.cardId)).toBe('ACTIVE');
  });
});

describe('issuing family B client: PIN, 3DS and spend limits', () => {
  it('hands out the set, reset and change PIN links', async () => {
    const set = await client.issuingB.getSetPinUrl(ALICE_PHYSICAL);
    const reset = await client.issuingB.getResetPinUrl(ALICE_PHYSICAL);
    const change = await client.issuingB.getChangePinUrl(ALICE_PHYSICAL);
    for (const link of [set, reset, change]) expect(link.set_pin_url).toMatch(/^https:\/\//);
    expect(new Set([set.set_pin_url, reset.set_pin_url, change.set_pin_url]).size).toBe(3);
  });

  it('reads, updates, unenrolls and re-enrolls 3D Secure', async () => {
    expect(await client.issuingB.get3ds(BRUNO_VIRTUAL)).toMatchObject({
      otp_delivery_method: 'SMS',
      status: 'ACTIVE',
    });
    expect(await client.issuingB.update3ds(BRUNO_VIRTUAL, { otp_delivery_method: 'EMAIL' })).toBeUndefined();
    const byEmail = await client.issuingB.get3ds(BRUNO_VIRTUAL);
    expect(byEmail?.otp_delivery_method).toBe('EMAIL');
    expect(byEmail?.destination).toContain('@');

    expect(await client.issuingB.unenroll3ds(BRUNO_VIRTUAL)).toBeUndefined();
    expect(await client.issuingB.get3ds(BRUNO_VIRTUAL)).toBeUndefined();
    expect(await client.issuingB.enroll3ds(BRUNO_VIRTUAL, { otp_delivery_method: 'SMS' })).toBeUndefined();
    expect((await client.issuingB.get3ds(BRUNO_VIRTUAL))?.otp_delivery_method).toBe('SMS');
  });

  it('reads the default spend limits and replaces one', async () => {
    const limits = await client.issuingB.getSpendLimits(ALICE_VIRTUAL);
    expect(limits).toContainEqual({
      amount_limit: 500_000,
      active: true,
      amount_limit_period: 'DAY',
      transaction_type: 'PURCHASE',
      currency_code: 'USD',
    });
    const result = await client.issuingB.updateSpendLimit(ALICE_VIRTUAL, {
      amount_limit_period: 'DAY',
      amount_limit: 1234,
      transaction_type: 'PURCHASE',
    });
    expect(result).toBeUndefined();
    const after = await client.issuingB.getSpendLimits(ALICE_VIRTUAL);
    const day = after.filter((l) => l.transaction_type === 'PURCHASE' && l.amount_limit_period === 'DAY');
    expect(day).toEqual([expect.objectContaining({ amount_limit: 1234 })]);
    expect(after).toHaveLength(limits.length);
  });
});

describe('issuing family B client: KYC', () => {
  it('shows completed and pending KYC', async () => {
    expect(await client.issuingB.getKyc({ cardholderHashId: ALICE })).toMatchObject({
      kycStatus: 'COMPLETED',
      complianceStatus: 'COMPLETED',
      kycLink: '',
    });
    const bruno = await client.issuingB.getKyc({ cardholderHashId: BRUNO });
    expect(bruno).toMatchObject({ kycStatus: 'PENDING', email: BRUNO_EMAIL });
    expect(bruno.kycLink).toMatch(/^https:\/\//);
  });

  it('reads an open RFI, nothing declined for a cardholder without one, and responds with a link', async () => {
    const rfi = await client.issuingB.getRfi({ cardholderHashId: BRUNO });
    expect(rfi?.services_declined_codes).toEqual({
      address: ['ADDRESS_PROOF_EXPIRED'],
      document: ['DOCUMENT_IMAGE_BLURRED'],
    });
    expect(rfi?.declined_reason).toMatch(/\S/);
    // Like family A: one element with empty lists when no RFI is open.
    expect(await client.issuingB.getRfi({ cardholderHashId: ALICE })).toEqual({
      services_declined_codes: { address: [], document: [] },
      declined_reason: '',
    });

    const responded = await client.issuingB.respondRfi({ cardholderHashId: BRUNO });
    expect(responded).toMatchObject({ kycStatus: 'PENDING' });
    expect(responded.kycLink).toMatch(/^https:\/\//);
    // Without an open RFI the respond endpoint still hands out a submission link.
    const noRfi = await client.issuingB.respondRfi({ cardholderHashId: ALICE });
    expect(noRfi).toMatchObject({ kycStatus: 'COMPLETED' });
    expect(noRfi.kycLink).toMatch(/^https:\/\//);
  });
});
