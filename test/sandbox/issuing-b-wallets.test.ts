import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  agentHeaders,
  ibCall,
  ibControl,
  newCardSetup,
  SEED,
  validCardholder,
} from '../helpers/issuing-b.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const alice = { holder: SEED.alice.id, wallet: SEED.alice.wallet };
const bruno = { holder: SEED.bruno.id, wallet: SEED.bruno.wallet };

const expectRefused = (res: { status: number; body: { code: number; status: string; message: string } }) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 400, status: 'error' });
  return res.body.message;
};

const history = (ids: Record<string, string>, query = '') =>
  ibCall(sandbox, 'GET', `/wallet/history${query}`, { ids });

describe('issuing B: wallets', () => {
  it('creates a wallet (200, data [Wallet]) and lists it', async () => {
    const res = await ibCall(sandbox, 'POST', '/wallet', {
      ids: { holder: SEED.alice.id },
      body: { currency: 'EUR' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    const wallet = res.body.data[0];
    expect(wallet).toMatchObject({ currency: 'EUR', amount: 0, holdingCurrency: 'EUR', status: 'ACTIVE' });
    expect(wallet.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    for (const f of ['dailyLimitAmount', 'weeklyLimitAmount', 'monthlyLimitAmount', 'yearlyLimitAmount']) {
      expect(typeof wallet[f]).toBe('number');
    }

    const list = await ibCall(sandbox, 'GET', '/wallet', { ids: { holder: SEED.alice.id } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([SEED.alice.wallet, wallet.id]);
    expect(list.body.data[0]).toMatchObject({ currency: 'USD', amount: SEED.alice.balance });
  });

  it('refuses a missing or malformed currency and a missing header', async () => {
    const ids = { holder: SEED.alice.id };
    expect(expectRefused(await ibCall(sandbox, 'POST', '/wallet', { ids, body: {} }))).toContain(
      'currency: is required',
    );
    expect(
      expectRefused(await ibCall(sandbox, 'POST', '/wallet', { ids, body: { currency: 'usd' } })),
    ).toContain('currency: must be a 3-letter currency code');
    const second = await ibCall(sandbox, 'POST', '/wallet', { ids, body: { currency: 'USD' } });
    expect(second.status).toBe(200);
    expect(second.body.data[0]).toMatchObject({ currency: 'USD' });
    expect(expectRefused(await ibCall(sandbox, 'GET', '/wallet'))).toContain('x-cardholder-id');
    expect(expectRefused(await ibCall(sandbox, 'GET', '/wallet', { ids: { holder: 'chb_x' } }))).toContain(
      "x-cardholder-id: cardholder 'chb_x' not found",
    );
  });
});

describe('issuing B: wallet history', () => {
  it('pages the history newest first (default size 10)', async () => {
    const first = await history(alice);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'success', code: 200 });
    expect(first.body.data).toHaveLength(10);
    const item = first.body.data[0];
    expect(item).toMatchObject({
      wallet_id: SEED.alice.wallet,
      txn_currency: 'USD',
      txn_ref_id: 'txn_seed_alice_031',
    });
    expect(typeof item.genericSlNo).toBe('number');
    expect(typeof item.acquirer_amount).toBe('string');
    expect(item.initiatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const last = await history(alice, '?page=4&size=10');
    expect(last.body.data).toHaveLength(SEED.alice.historyItems - 30);
    const big = await history(alice, '?page=1&size=100');
    expect(big.body.data).toHaveLength(SEED.alice.historyItems);
    const slNos = big.body.data.map((t: { genericSlNo: number }) => t.genericSlNo);
    expect(slNos).toEqual([...slNos].sort((a, b) => b - a));
    const beyond = await history(alice, '?page=9');
    expect(beyond.body.data).toEqual([]);
  });

  it('restricts to one card with x-card-id', async () => {
    const res = await history({ ...alice, card: SEED.alice.virtual }, '?size=100');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(SEED.alice.virtualItems);
    for (const t of res.body.data) {
      expect(t.card_id).toBe(SEED.alice.virtual);
      expect(['APPROVED', 'SUCCESS']).toContain(t.txn_status);
    }
  });

  it('filters by from_date and to_date (dates inclusive, or date-times)', async () => {
    const days = await history(alice, '?from_date=2026-10-05&to_date=2026-10-10&size=100');
    expect(days.body.data).toHaveLength(6);
    const times = await history(alice, '?from_date=2026-10-05T10:05:00&to_date=2026-10-05T10:05:00');
    expect(times.body.data.map((t: { txn_ref_id: string }) => t.txn_ref_id)).toEqual(['txn_seed_alice_005']);
  });

  it('caps a size above 100 to 100 instead of refusing it', async () => {
    const res = await history(alice, '?size=101');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(32);
  });

  it('refuses bad paging and date parameters', async () => {
    expect(expectRefused(await history(alice, '?page=0'))).toContain('page must be at least 1');
    expect(expectRefused(await history(alice, '?size=0'))).toContain('size must be at least 1');
    expect(expectRefused(await history(alice, '?size=abc'))).toContain('size must be an integer');
    expect(expectRefused(await history(alice, '?from_date=05/10/2026'))).toContain(
      'from_date must be a date',
    );
    expect(expectRefused(await history(alice, '?from_date=2026-10-10&to_date=2026-10-01'))).toContain(
      'from_date must not be after to_date',
    );
  });

  it('refuses a wallet or card that does not belong to the cardholder, naming the header', async () => {
    const foreignWallet = await history({ holder: SEED.alice.id, wallet: SEED.bruno.wallet });
    expect(expectRefused(foreignWallet)).toBe(
      `x-wallet-id: wallet '${SEED.bruno.wallet}' does not belong to cardholder '${SEED.alice.id}'`,
    );
    const foreignCard = await history({ ...alice, card: SEED.bruno.virtual });
    expect(expectRefused(foreignCard)).toBe(
      `x-card-id: card '${SEED.bruno.virtual}' does not belong to wallet '${SEED.alice.wallet}'`,
    );
    expect(expectRefused(await history({ holder: SEED.alice.id }))).toContain('x-wallet-id');
  });
});

describe('issuing B: transfers', () => {
  it('moves money between cardholders (200, data [{id}]) and records P2P items on both sides', async () => {
    const res = await ibCall(sandbox, 'POST', '/wallet/transfer', {
      ids: { holder: SEED.alice.id },
      body: { email: SEED.bruno.email, amount: 100.25, description: 'Concert tickets' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    const id = res.body.data[0].id;
    expect(typeof id).toBe('string');

    const [aliceTop] = (await history(alice)).body.data;
    expect(aliceTop).toMatchObject({
      txn_type: 'P2P',
      txn_direction: 'DEBIT',
      txn_amount: 100.25,
      txn_ref_id: id,
      txn_email: SEED.bruno.email,
      txn_description: 'Concert tickets',
      available_amount: 18496.65,
    });
    const [brunoTop] = (await history(bruno)).body.data;
    expect(brunoTop).toMatchObject({
      txn_type: 'P2P',
      txn_direction: 'CREDIT',
      txn_ref_id: id,
      available_amount: 950.25,
    });
    const wallets = await ibCall(sandbox, 'GET', '/wallet', { ids: { holder: SEED.bruno.id } });
    expect(wallets.body.data[0].amount).toBe(950.25);
  });

  it('refuses insufficient funds, unknown or same receiver, and bad bodies', async () => {
    const send = (body: unknown, holder: string = SEED.bruno.id) =>
      ibCall(sandbox, 'POST', '/wallet/transfer', { ids: { holder }, body });
    expect(
      expectRefused(await send({ email: SEED.alice.email, amount: 850.01, description: 'too much' })),
    ).toContain('insufficient balance');
    expect(expectRefused(await send({ email: 'nobody@example.com', amount: 1, description: 'x' }))).toContain(
      "email: no family B cardholder has the email 'nobody@example.com'",
    );
    expect(expectRefused(await send({ email: SEED.bruno.email, amount: 1, description: 'x' }))).toContain(
      'receiver must be another cardholder',
    );
    const bad = expectRefused(await send({ email: SEED.alice.email, amount: 0 }));
    expect(bad).toContain('amount: must be greater than 0');
    expect(bad).toContain('description: is required');
    expect(expectRefused(await send({ email: SEED.alice.email, amount: '5', description: 'x' }))).toContain(
      'amount: must be a number',
    );
    expect(expectRefused(await send({ email: SEED.alice.email, amount: 1.234, description: 'x' }))).toContain(
      'amount: must have at most 2 decimal places',
    );
    const wallets = await ibCall(sandbox, 'GET', '/wallet', { ids: { holder: SEED.bruno.id } });
    expect(wallets.body.data[0].amount).toBe(SEED.bruno.balance);
  });

  it('refuses a receiver without a wallet in the sender currency', async () => {
    const body = validCardholder();
    const created = await ibCall(sandbox, 'POST', '/cardholder', { body, headers: agentHeaders(sandbox) });
    const holder = created.body.data[0].id;
    const eur = await ibCall(sandbox, 'POST', '/wallet', { ids: { holder }, body: { currency: 'EUR' } });
    expect(eur.status).toBe(200);
    const res = await ibCall(sandbox, 'POST', '/wallet/transfer', {
      ids: { holder: SEED.alice.id },
      body: { email: body.email, amount: 1, description: 'x' },
    });
    expect(expectRefused(res)).toBe('email: the receiver has no USD wallet');
  });

  it('refuses a transfer to an email two cardholders share, as the receiver is ambiguous', async () => {
    const twin = await ibCall(sandbox, 'POST', '/cardholder', {
      body: validCardholder({ email: SEED.alice.email }),
      headers: agentHeaders(sandbox),
    });
    expect(twin.status).toBe(200);
    const res = await ibCall(sandbox, 'POST', '/wallet/transfer', {
      ids: { holder: SEED.bruno.id },
      body: { email: SEED.alice.email, amount: 1, description: 'x' },
    });
    expect(expectRefused(res)).toContain('the receiver is ambiguous');
  });

  it('loads a wallet through the control route', async () => {
    const { holder, wallet, email } = await newCardSetup(sandbox);
    const load = await ibControl(sandbox, `/wallets/${wallet}/load`, { amount: 500 });
    expect(load.status).toBe(200);
    expect(load.body).toMatchObject({ walletId: wallet, balance: 500, currency: 'USD' });
    const [item] = (await history({ holder, wallet })).body.data;
    expect(item).toMatchObject({
      txn_type: 'M2P',
      txn_direction: 'CREDIT',
      txn_amount: 500,
      available_amount: 500,
    });
    const send = await ibCall(sandbox, 'POST', '/wallet/transfer', {
      ids: { holder },
      body: { email: SEED.alice.email, amount: 499.99, description: 'back' },
    });
    expect(send.status).toBe(200);
    expect(email).toContain('@');
    expect((await ibControl(sandbox, '/wallets/wal_none/load', { amount: 1 })).status).toBe(400);
    expect((await ibControl(sandbox, `/wallets/${wallet}/load`, { amount: -1 })).status).toBe(400);
  });
});
