import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { SEED } from '../helpers/issuing-b.js';

// Wallet and transfer tools of issuing family B, through the executor against the sandbox.

/** Every CLI user may run everything without approval: to exercise the transfer itself. */
const ALLOW_ALL = `
actors:
  - match: { cli: "*" }
    roles: [operator]
rules:
  - name: everything
    allow: [operator]
`;

let core: TestCore;
let open: TestCore;
beforeAll(async () => {
  [core, open] = await Promise.all([createTestCore(), createTestCore({ policyYaml: ALLOW_ALL })]);
});
afterAll(async () => {
  await Promise.all([core.close(), open.close()]);
});
beforeEach(() => {
  core.sandbox.reset();
  open.sandbox.reset();
});

interface Wallet {
  id: string;
  currency: string;
  amount: number;
}
interface Txn {
  card_id: string | null;
  txn_type: string;
  txn_direction: string;
  txn_ref_id: string | null;
  txn_amount: number | string;
  initiatedAt: string | null;
}

const wallets = async (c: TestCore, cardholderId: string): Promise<Wallet[]> =>
  (await c.ok('list_wallets_b', { cardholderId })).wallets as Wallet[];
const balance = async (c: TestCore, cardholderId: string): Promise<number | undefined> =>
  (await wallets(c, cardholderId))[0]?.amount;
/** Transfers the service has handled so far (its counters survive a reset). */
const transfers = (c: TestCore): number => c.sandbox.stats()['issuingB.transfer'] ?? 0;
const history = async (c: TestCore, input: Record<string, unknown>): Promise<Txn[]> =>
  (await c.ok('get_wallet_history_b', input)).transactions as Txn[];

describe('wallet tools (family B)', () => {
  it('list_wallets_b lists the seeded wallet with its balance', async () => {
    const list = await wallets(core, SEED.alice.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: SEED.alice.wallet,
      currency: 'USD',
      amount: SEED.alice.balance,
      status: 'ACTIVE',
    });
  });

  it('create_wallet_b opens an empty wallet that list_wallets_b then shows', async () => {
    const { wallet } = await core.ok('create_wallet_b', { cardholderId: SEED.alice.id, currency: 'EUR' });
    expect(wallet).toMatchObject({ currency: 'EUR', amount: 0, id: expect.any(String) });
    const list = await wallets(core, SEED.alice.id);
    expect(list.map((w) => [w.id, w.currency])).toEqual([
      [SEED.alice.wallet, 'USD'],
      [(wallet as Wallet).id, 'EUR'],
    ]);
  });

  it('create_wallet_b refuses a lower-case currency as a field error', async () => {
    const result = await core.call('create_wallet_b', { cardholderId: SEED.alice.id, currency: 'eur' });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid')
      expect(result.errors).toEqual([{ path: 'currency', message: expect.any(String) }]);
  });

  it('get_wallet_history_b pages the history, filters by card and by dates', async () => {
    expect(
      await history(core, { cardholderId: SEED.alice.id, walletId: SEED.alice.wallet, size: 100 }),
    ).toHaveLength(SEED.alice.historyItems);
    expect(await history(core, { cardholderId: SEED.alice.id, walletId: SEED.alice.wallet })).toHaveLength(
      10,
    );
    const page4 = await history(core, { cardholderId: SEED.alice.id, walletId: SEED.alice.wallet, page: 4 });
    expect(page4).toHaveLength(SEED.alice.historyItems - 30);

    const card = await history(core, {
      cardholderId: SEED.alice.id,
      walletId: SEED.alice.wallet,
      cardId: SEED.alice.virtual,
      size: 100,
    });
    expect(card.length).toBeGreaterThan(0);
    expect(card.length).toBeLessThanOrEqual(SEED.alice.virtualItems);
    for (const item of card) expect(item.card_id).toBe(SEED.alice.virtual);

    const october = await history(core, {
      cardholderId: SEED.alice.id,
      walletId: SEED.alice.wallet,
      from_date: '2026-10-15',
      to_date: '2026-10-31',
      size: 100,
    });
    expect(october.length).toBeGreaterThan(0);
    expect(october.length).toBeLessThan(SEED.alice.historyItems);
    for (const item of october) expect((item.initiatedAt ?? '').slice(0, 10) >= '2026-10-15').toBe(true);
  });

  it('get_wallet_history_b refuses a date in another format, naming the field', async () => {
    const result = await core.call('get_wallet_history_b', {
      cardholderId: SEED.alice.id,
      walletId: SEED.alice.wallet,
      from_date: '15/10/2026',
    });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid') expect(result.errors[0]?.path).toBe('from_date');
  });

  it("surfaces the service's refusal of another cardholder's wallet", async () => {
    const result = await core.call('get_wallet_history_b', {
      cardholderId: SEED.alice.id,
      walletId: SEED.bruno.wallet,
    });
    expect(result.status).toBe('failed');
    if (result.status === 'failed') expect(result.error.message).toMatch(/does not belong to cardholder/);
  });
});

describe('transfer_wallet_funds', () => {
  const transfer = {
    cardholderId: SEED.alice.id,
    email: SEED.bruno.email,
    amount: 25.5,
    description: 'Lunch',
  };

  it('needs approval under the default policy: nothing moves on the request', async () => {
    const before = transfers(core);
    const result = await core.call('transfer_wallet_funds', transfer);
    expect(['pending_approval', 'denied']).toContain(result.status);
    expect(await balance(core, SEED.alice.id)).toBe(SEED.alice.balance);
    expect(transfers(core)).toBe(before);
  });

  it('moves the amount between the two wallets, with one reference in both histories', async () => {
    const out = await open.ok('transfer_wallet_funds', transfer);
    expect(out).toEqual({ transferId: expect.any(String), amount: 25.5, currency: 'USD' });
    expect(await balance(open, SEED.alice.id)).toBeCloseTo(SEED.alice.balance - 25.5, 2);
    expect(await balance(open, SEED.bruno.id)).toBeCloseTo(SEED.bruno.balance + 25.5, 2);
    const [credit] = await history(open, {
      cardholderId: SEED.bruno.id,
      walletId: SEED.bruno.wallet,
      size: 1,
    });
    expect(credit).toMatchObject({ txn_type: 'P2P', txn_direction: 'CREDIT', txn_ref_id: out.transferId });
  });

  it('a retry with the same idempotency key is the same transfer at the service', async () => {
    const request = {
      tool: 'transfer_wallet_funds',
      input: transfer,
      actor: open.operator,
      idempotencyKey: 'lunch-1',
    };
    const first = await open.executor.execute(request);
    // As after a crash between the service's answer and the stored result: the executor runs the tool
    // again under the same key, and the service must see the same request, not a second transfer.
    open.db.prepare('UPDATE executions SET result_json = NULL').run();
    const second = await open.executor.execute(request);
    expect(first.status).toBe('ok');
    expect(second.status).toBe('ok');
    if (first.status !== 'ok' || second.status !== 'ok') return;
    expect(second.output.transferId).toBe(first.output.transferId);
    expect(await balance(open, SEED.alice.id)).toBeCloseTo(SEED.alice.balance - 25.5, 2);
  });

  it('refuses, before sending, a currency other than that of the debited wallet', async () => {
    const before = transfers(open);
    const result = await open.call('transfer_wallet_funds', { ...transfer, currency: 'EUR' });
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.error.message).toMatch(/wal_demo_alice_usd in USD, not EUR/);
    expect(transfers(open)).toBe(before);
    expect(await balance(open, SEED.alice.id)).toBe(SEED.alice.balance);
  });

  it('refuses a non-positive amount as a field error', async () => {
    const result = await open.call('transfer_wallet_funds', { ...transfer, amount: 0 });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid') expect(result.errors.map((e) => e.path)).toEqual(['amount']);
  });

  it("surfaces the service's refusal of an amount above the balance", async () => {
    const result = await open.call('transfer_wallet_funds', { ...transfer, amount: 1_000_000 });
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.error).toMatchObject({ kind: 'service', operation: 'issuingB.transfer' });
    expect(result.error.message).toMatch(/insufficient balance/);
    expect(await balance(open, SEED.bruno.id)).toBe(SEED.bruno.balance);
  });
});
