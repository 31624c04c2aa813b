import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ibCall, newCardSetup, SEED } from '../helpers/issuing-b.js';
import { headerSets, type RunningSandbox, raw, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const alice = { holder: SEED.alice.id, wallet: SEED.alice.wallet };
const card = (id: string) => ({ ...alice, card: id });

const expectRefused = (res: { status: number; body: { code: number; status: string; message: string } }) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 400, status: 'error' });
  return res.body.message;
};

const listCards = (ids: { holder: string; wallet: string }, query = '') =>
  ibCall(sandbox, 'GET', `/card/list${query}`, { ids });

const setStatus = (ids: Record<string, string>, status: string) =>
  ibCall(sandbox, 'PATCH', '/card/status/update', { ids, body: { status } });

describe('issuing B: card creation and assignment', () => {
  it('creates an ACTIVE virtual card with 3DS by e-mail and the default spend limits', async () => {
    const res = await ibCall(sandbox, 'POST', '/card', {
      ids: alice,
      body: { card_type: 'virtual', is_primary: 'true' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    const cardId = res.body.data[0].cardId;
    const ids = card(cardId);

    const details = await ibCall(sandbox, 'GET', '/card/details', { ids });
    expect(details.status).toBe(200);
    expect(details.body.data[0]).toMatchObject({
      status: 'ACTIVE',
      card_type: 'VIRTUAL',
      card_is_primary: true,
      is_pin_set: false,
      purchase_limit: '250000',
      daily_spend_limit: '500000',
      monthly_spend_limit: '2000000',
      weekly_spend_limit: '',
      total_spend_limit: '',
    });
    expect(details.body.data[0].truncated_card_number).toMatch(/^5300 00\*\* \*\*\*\* \d{4}$/);

    const threeDs = await ibCall(sandbox, 'GET', '/card/3DS', { ids });
    expect(threeDs.body.data).toEqual([
      { otp_delivery_method: 'EMAIL', destination: SEED.alice.email, status: 'ACTIVE' },
    ]);

    const limits = await ibCall(sandbox, 'GET', '/card/limit', { ids });
    const table = limits.body.data.map(
      (l: {
        transaction_type: string;
        amount_limit_period: string;
        amount_limit: number;
        currency_code: string;
      }) => `${l.transaction_type} ${l.amount_limit_period} ${l.amount_limit} ${l.currency_code}`,
    );
    expect(table).toEqual([
      'PURCHASE TRANSACTION 250000 USD',
      'PURCHASE DAY 500000 USD',
      'PURCHASE MONTH 2000000 USD',
      'PURCHASE YEAR 10000000 USD',
      'ATM_CASH_WITHDRAWAL TRANSACTION 1500 USD',
      'ATM_CASH_WITHDRAWAL DAY 3000 USD',
      'ATM_CASH_WITHDRAWAL MONTH 15000 USD',
      'ATM_CASH_WITHDRAWAL YEAR 50000 USD',
    ]);
    expect(limits.body.data.every((l: { active: boolean }) => l.active)).toBe(true);

    const primary = await ibCall(sandbox, 'GET', '/card/details', { ids: card(SEED.alice.virtual) });
    expect(primary.body.data[0].card_is_primary).toBe(false);
  });

  it('refuses a card type other than virtual and a non-string is_primary', async () => {
    const physical = await ibCall(sandbox, 'POST', '/card', { ids: alice, body: { card_type: 'physical' } });
    expect(expectRefused(physical)).toContain("card_type: must be 'virtual'");
    const missing = await ibCall(sandbox, 'POST', '/card', { ids: alice, body: {} });
    expect(expectRefused(missing)).toContain('card_type: is required');
    const flag = await ibCall(sandbox, 'POST', '/card', {
      ids: alice,
      body: { card_type: 'virtual', is_primary: true },
    });
    expect(expectRefused(flag)).toContain("is_primary: must be the string 'true' or 'false'");
    const foreign = await ibCall(sandbox, 'POST', '/card', {
      ids: { holder: SEED.alice.id, wallet: SEED.bruno.wallet },
      body: { card_type: 'virtual' },
    });
    expect(expectRefused(foreign)).toContain('x-wallet-id');
  });

  it('replays a repeated x-request-id: same cardId, one card created', async () => {
    const before = (await listCards(alice)).body.data[0].total_count;
    const headers = {
      ...headerSets(sandbox).HB2(),
      'x-cardholder-id': alice.holder,
      'x-wallet-id': alice.wallet,
    };
    const body = { card_type: 'virtual' };
    const first = await raw(sandbox, 'POST', '/issuing/api/v1/card', { headers, body });
    const again = await raw(sandbox, 'POST', '/issuing/api/v1/card', { headers, body });
    expect(first.status).toBe(200);
    expect(again.body.data[0].cardId).toBe(first.body.data[0].cardId);
    const after = (await listCards(alice, '?size=100')).body.data[0];
    expect(after.total_count).toBe(before + 1);
    expect(
      after.cards.filter((c: { cardId: string }) => c.cardId === first.body.data[0].cardId),
    ).toHaveLength(1);
  });

  it('assigns a physical card of the inventory by last four digits and code', async () => {
    const stock = SEED.inventory[0];
    const res = await ibCall(sandbox, 'POST', '/card/assign', {
      ids: alice,
      body: { last_four_digit: stock.last4, code: stock.code },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    const ids = card(res.body.data[0].cardId);
    const details = await ibCall(sandbox, 'GET', '/card/details', { ids });
    expect(details.body.data[0]).toMatchObject({
      status: 'ACTIVE',
      card_type: 'PHYSICAL',
      purchase_limit: '250000',
    });
    expect(details.body.data[0].truncated_card_number).toMatch(new RegExp(`${stock.last4}$`));
    expect((await ibCall(sandbox, 'GET', '/card/3DS', { ids })).body.data[0].otp_delivery_method).toBe(
      'EMAIL',
    );

    const twice = await ibCall(sandbox, 'POST', '/card/assign', {
      ids: alice,
      body: { last_four_digit: stock.last4, code: stock.code },
    });
    expect(expectRefused(twice)).toBe('no unassigned physical card matches last_four_digit and code');
  });

  it('refuses a wrong code without echoing it, and malformed last four digits', async () => {
    const stock = SEED.inventory[1];
    const wrong = await ibCall(sandbox, 'POST', '/card/assign', {
      ids: alice,
      body: { last_four_digit: stock.last4, code: 'SECRET-GUESS-42' },
    });
    expect(expectRefused(wrong)).not.toContain('SECRET-GUESS-42');
    const other = await ibCall(sandbox, 'POST', '/card/assign', {
      ids: alice,
      body: { last_four_digit: SEED.inventory[2].last4, code: stock.code },
    });
    expect(other.status).toBe(400);
    const bad = await ibCall(sandbox, 'POST', '/card/assign', {
      ids: alice,
      body: { last_four_digit: '12a4' },
    });
    const message = expectRefused(bad);
    expect(message).toContain('last_four_digit: must be the last 4 digits');
    expect(message).toContain('code: is required');
  });
});

describe('issuing B: card list, details, token, configuration', () => {
  it('lists the wallet cards with paging', async () => {
    const res = await listCards(alice);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    const page = res.body.data[0];
    expect(page).toMatchObject({ total_count: 4, page: 1, total_pages: 1 });
    expect(page.cards[0]).toEqual({
      last4: '4821',
      createdAt: '2026-09-01',
      cardId: SEED.alice.virtual,
      cardType: 'VIRTUAL',
      cardStatus: 'ACTIVE',
    });
    expect(page.cards.map((c: { cardStatus: string }) => c.cardStatus)).toEqual([
      'ACTIVE',
      'LOCKED',
      'INACTIVE',
      'STOLEN',
    ]);
    const second = (await listCards(alice, '?page=2&size=3')).body.data[0];
    expect(second).toMatchObject({ total_count: 4, page: 2, total_pages: 2 });
    expect(second.cards.map((c: { cardId: string }) => c.cardId)).toEqual([SEED.alice.stolen]);
    expect(expectRefused(await listCards(alice, '?page=0'))).toContain('page must be at least 1');
  });

  it('caps a size above 100 to 100 instead of refusing it', async () => {
    const res = await listCards(alice, '?size=250');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data[0]).toMatchObject({ total_count: 4, page: 1, total_pages: 1 });
    expect(res.body.data[0].cards).toHaveLength(4);
    expect(expectRefused(await listCards(alice, '?size=0'))).toContain('size must be at least 1');
  });

  it('gives a details token link and never the full card number', async () => {
    const res = await ibCall(sandbox, 'GET', '/card/token', { ids: card(SEED.alice.virtual) });
    expect(res.status).toBe(200);
    expect(res.body.data[0].url).toMatch(/^https:\/\/cards\.sandbox\.invalid\/reveal\/[\w-]{16,}$/);
    const details = await ibCall(sandbox, 'GET', '/card/details', { ids: card(SEED.alice.virtual) });
    expect(details.body.data[0]).toMatchObject({
      truncated_card_number: '5300 00** **** 4821',
      is_pin_set: true,
      printing_state: 'NOT_APPLICABLE',
    });
    expect(JSON.stringify(details.body)).not.toMatch(/\d{16}/);
    const stolen = await ibCall(sandbox, 'GET', '/card/token', { ids: card(SEED.alice.stolen) });
    expect(expectRefused(stolen)).toContain('permanently blocked');
  });

  it('reads and updates the card-present configuration', async () => {
    const ids = card(SEED.alice.virtual);
    const read = await ibCall(sandbox, 'GET', '/card/configuration', { ids });
    expect(read.body).toMatchObject({ code: 200, data: [{ card_present_transaction_enabled: true }] });
    const off = await ibCall(sandbox, 'PATCH', '/card/configuration', {
      ids,
      body: { card_present_transaction_enabled: false },
    });
    expect(off.body).toMatchObject({ code: 200, data: [{ card_present_transaction_enabled: false }] });
    const again = await ibCall(sandbox, 'GET', '/card/configuration', { ids });
    expect(again.body.data[0].card_present_transaction_enabled).toBe(false);
    const bad = await ibCall(sandbox, 'PATCH', '/card/configuration', {
      ids,
      body: { card_present_transaction_enabled: 'false' },
    });
    expect(expectRefused(bad)).toContain('card_present_transaction_enabled: must be a boolean');
    const missing = await ibCall(sandbox, 'PATCH', '/card/configuration', { ids, body: {} });
    expect(expectRefused(missing)).toContain('card_present_transaction_enabled: is required');
  });

  it('refuses a card of another wallet and a missing x-card-id', async () => {
    const foreign = await ibCall(sandbox, 'GET', '/card/details', { ids: card(SEED.bruno.virtual) });
    expect(expectRefused(foreign)).toBe(
      `x-card-id: card '${SEED.bruno.virtual}' does not belong to wallet '${SEED.alice.wallet}'`,
    );
    const none = await ibCall(sandbox, 'GET', '/card/details', { ids: alice });
    expect(expectRefused(none)).toContain('x-card-id');
    const unknown = await ibCall(sandbox, 'GET', '/card/details', { ids: card('card_none') });
    expect(expectRefused(unknown)).toBe("x-card-id: card 'card_none' not found");
  });
});

describe('issuing B: card activation and status', () => {
  it('activates only an INACTIVE card', async () => {
    const ok = await ibCall(sandbox, 'POST', '/card/activate', { ids: card(SEED.alice.physical) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'success', code: 200, data: [{ status: 'ACTIVE' }] });
    const again = await ibCall(sandbox, 'POST', '/card/activate', { ids: card(SEED.alice.physical) });
    expect(expectRefused(again)).toContain('only an INACTIVE card can be activated');
    const locked = await ibCall(sandbox, 'POST', '/card/activate', { ids: card(SEED.alice.locked) });
    expect(expectRefused(locked)).toContain('is LOCKED; only an INACTIVE card');
    const stolen = await ibCall(sandbox, 'POST', '/card/activate', { ids: card(SEED.alice.stolen) });
    expect(expectRefused(stolen)).toContain('permanently blocked');
  });

  it('sets ACTIVE only from LOCKED and refuses the current status', async () => {
    const unlock = await setStatus(card(SEED.alice.locked), 'ACTIVE');
    expect(unlock.status).toBe(200);
    expect(unlock.body).toMatchObject({ code: 200, data: [{ cardId: SEED.alice.locked, status: 'ACTIVE' }] });
    const same = await setStatus(card(SEED.alice.locked), 'ACTIVE');
    expect(expectRefused(same)).toContain('already ACTIVE');
    const fromInactive = await setStatus(card(SEED.alice.physical), 'ACTIVE');
    expect(expectRefused(fromInactive)).toContain('only a LOCKED card can be set to ACTIVE');
    const lock = await setStatus(card(SEED.alice.virtual), 'LOCKED');
    expect(lock.body.data[0].status).toBe('LOCKED');
    const alias = await ibCall(sandbox, 'PATCH', '/card/status/update', {
      ids: card(SEED.alice.virtual),
      body: { card_status: 'ACTIVE' },
    });
    expect(alias.body.data[0].status).toBe('ACTIVE');
  });

  it('makes LOST, STOLEN and BLOCKED permanent', async () => {
    const { holder, wallet, card: cardId } = await newCardSetup(sandbox);
    const ids = { holder, wallet, card: cardId };
    expect((await setStatus(ids, 'LOST')).status).toBe(200);
    for (const target of ['ACTIVE', 'LOCKED', 'INACTIVE', 'BLOCKED']) {
      expect(expectRefused(await setStatus(ids, target))).toContain('permanently blocked (LOST)');
    }
    const refused = [
      await ibCall(sandbox, 'PATCH', '/card/limit', {
        ids,
        body: { amount_limit_period: 'DAY', amount_limit: 100, transaction_type: 'PURCHASE' },
      }),
      await ibCall(sandbox, 'GET', '/card/setpin', { ids }),
      await ibCall(sandbox, 'PATCH', '/card/configuration', {
        ids,
        body: { card_present_transaction_enabled: false },
      }),
      await ibCall(sandbox, 'DELETE', '/card/3DS', { ids }),
    ];
    for (const res of refused) expect(expectRefused(res)).toContain('permanently blocked');
    const read = await ibCall(sandbox, 'GET', '/card/details', { ids });
    expect(read.body.data[0].status).toBe('LOST');
  });

  it('refuses a missing or unknown target status', async () => {
    const ids = card(SEED.alice.virtual);
    expect(expectRefused(await setStatus(ids, 'FROZEN'))).toContain(
      'status: must be one of INACTIVE, ACTIVE, LOCKED',
    );
    const none = await ibCall(sandbox, 'PATCH', '/card/status/update', { ids, body: {} });
    expect(expectRefused(none)).toContain('status: is required');
    const toInactive = await setStatus(ids, 'INACTIVE');
    expect(toInactive.body.data[0].status).toBe('INACTIVE');
  });
});
