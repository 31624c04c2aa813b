import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { SEED } from '../helpers/issuing-b.js';

// Card tools of issuing family B (issue, assign, list, activate, details, link, status).

/** Every CLI user may run everything without approval: to exercise permanent status changes. */
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
beforeEach(async () => {
  core.sandbox.reset();
  open.sandbox.reset();
});

const alice = { cardholderId: SEED.alice.id, walletId: SEED.alice.wallet };
const aliceCard = (cardId: string) => ({ ...alice, cardId });

interface ListedCard {
  cardId: string;
  last4: string;
  cardType: string;
  cardStatus: string;
}
interface CardDetails {
  status: string;
  card_type: string;
  card_is_primary: boolean;
  is_pin_set: boolean;
  truncated_card_number: string;
}

const details = async (c: TestCore, cardId: string): Promise<CardDetails> =>
  (await c.ok('get_card_details_b', aliceCard(cardId))).card as CardDetails;
const listed = async (c: TestCore): Promise<ListedCard[]> =>
  (await c.ok('list_cards_b', { ...alice, size: 100 })).cards as ListedCard[];
/** Everything the audit log holds, as one string, to look for secrets in it. */
const auditText = async (c: TestCore): Promise<string> =>
  JSON.stringify(await c.audit.list({ limit: 10_000 }));

describe('card tools (family B)', () => {
  it("list_cards_b lists the wallet's seeded cards with paging totals", async () => {
    const out = await core.ok('list_cards_b', { ...alice, page: 1, size: 2 });
    expect(out).toMatchObject({ total_count: 4, page: 1, total_pages: 2 });
    expect((out.cards as ListedCard[]).length).toBe(2);
    const all = await listed(core);
    expect(all.map((c) => [c.cardId, c.cardStatus])).toEqual([
      [SEED.alice.virtual, 'ACTIVE'],
      [SEED.alice.locked, 'LOCKED'],
      [SEED.alice.physical, 'INACTIVE'],
      [SEED.alice.stolen, 'STOLEN'],
    ]);
    expect(all[0]).toMatchObject({ last4: '4821', cardType: 'VIRTUAL' });
  });

  it('get_card_details_b shows the masked number and flags', async () => {
    const card = await details(core, SEED.alice.virtual);
    expect(card).toMatchObject({ status: 'ACTIVE', card_is_primary: true, is_pin_set: true });
    expect(card.truncated_card_number).toMatch(/4821$/);
    expect(card.truncated_card_number).not.toMatch(/^\d{16}$/);
  });

  it('create_card_b issues an active virtual card; is_primary moves the primary flag', async () => {
    const { cardId } = await core.ok('create_card_b', { ...alice, is_primary: true });
    expect(cardId).toEqual(expect.any(String));
    const card = await details(core, cardId as string);
    expect(card).toMatchObject({ status: 'ACTIVE', card_is_primary: true, is_pin_set: false });
    expect((await details(core, SEED.alice.virtual)).card_is_primary).toBe(false);
    expect((await listed(core)).map((c) => c.cardId)).toContain(cardId);
  });

  it('assign_card_b links an inventory card; the code never reaches the audit log', async () => {
    const [stock] = SEED.inventory;
    const { cardId } = await core.ok('assign_card_b', {
      ...alice,
      last_four_digit: stock.last4,
      code: stock.code,
    });
    const card = (await listed(core)).find((c) => c.cardId === cardId);
    expect(card).toMatchObject({ last4: stock.last4, cardType: 'PHYSICAL', cardStatus: 'ACTIVE' });
    expect(await auditText(core)).not.toContain(stock.code);
  });

  it('assign_card_b with a wrong code fails with the service message, and the code stays secret', async () => {
    const wrong = 'Z9Z9-WRONG1';
    const result = await core.call('assign_card_b', { ...alice, last_four_digit: '2468', code: wrong });
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.error.message).toMatch(/no unassigned physical card matches/);
    expect(JSON.stringify(result)).not.toContain(wrong);
    expect(await auditText(core)).not.toContain(wrong);
  });

  it('assign_card_b refuses a malformed last_four_digit before sending; the code is not echoed', async () => {
    const code = 'K7Q2-9XMA';
    const result = await core.call('assign_card_b', { ...alice, last_four_digit: '24', code });
    expect(result.status).toBe('invalid');
    if (result.status !== 'invalid') return;
    expect(result.errors.map((e) => e.path)).toEqual(['last_four_digit']);
    expect(JSON.stringify(result)).not.toContain(code);
    expect(await auditText(core)).not.toContain(code);
  });

  it('activate_card_b activates an INACTIVE card; an ACTIVE one is refused by the service', async () => {
    expect(await core.ok('activate_card_b', aliceCard(SEED.alice.physical))).toEqual({ status: 'ACTIVE' });
    expect((await details(core, SEED.alice.physical)).status).toBe('ACTIVE');
    const again = await core.call('activate_card_b', aliceCard(SEED.alice.physical));
    expect(again.status).toBe('failed');
    if (again.status === 'failed')
      expect(again.error.message).toMatch(/only an INACTIVE card can be activated/);
  });

  it('get_card_details_link_b returns the secure link, which never reaches the audit log', async () => {
    const out = await core.ok('get_card_details_link_b', aliceCard(SEED.alice.virtual));
    expect(out.url).toMatch(/^https:\/\/cards\.sandbox\.invalid\/reveal\//);
    expect(await auditText(core)).not.toContain(out.url as string);
    const blocked = await core.call('get_card_details_link_b', aliceCard(SEED.alice.stolen));
    expect(blocked.status).toBe('failed');
    if (blocked.status === 'failed') expect(blocked.error.message).toMatch(/permanently blocked/);
  });
});

describe('update_card_status_b', () => {
  it('unlocks a LOCKED card and locks it again (reversible, no approval)', async () => {
    expect(
      await core.ok('update_card_status_b', { ...aliceCard(SEED.alice.locked), status: 'ACTIVE' }),
    ).toMatchObject({
      status: 'ACTIVE',
      // Which card it was, as people know it.
      card: { last4: expect.stringMatching(/^\d{4}$/), holder: 'Alice Tan' },
    });
    expect((await details(core, SEED.alice.locked)).status).toBe('ACTIVE');
    await core.ok('update_card_status_b', { ...aliceCard(SEED.alice.locked), status: 'LOCKED' });
    expect((await details(core, SEED.alice.locked)).status).toBe('LOCKED');
  });

  it('a permanent block needs approval under the default policy: the card stays active', async () => {
    const result = await core.call('update_card_status_b', {
      ...aliceCard(SEED.alice.virtual),
      status: 'STOLEN',
    });
    expect(['pending_approval', 'denied']).toContain(result.status);
    expect((await details(core, SEED.alice.virtual)).status).toBe('ACTIVE');
  });

  it('blocks a card permanently: afterwards the service refuses any status change', async () => {
    await open.ok('update_card_status_b', { ...aliceCard(SEED.alice.virtual), status: 'LOST' });
    expect((await details(open, SEED.alice.virtual)).status).toBe('LOST');
    const back = await open.call('update_card_status_b', {
      ...aliceCard(SEED.alice.virtual),
      status: 'LOCKED',
    });
    expect(back.status).toBe('failed');
    if (back.status !== 'failed') return;
    expect(back.error).toMatchObject({ kind: 'service', operation: 'issuingB.updateCardStatus' });
    expect(back.error.message).toMatch(/permanently blocked/);
  });

  it('ACTIVE from a status other than LOCKED is refused by the service', async () => {
    const result = await core.call('update_card_status_b', {
      ...aliceCard(SEED.alice.physical),
      status: 'ACTIVE',
    });
    expect(result.status).toBe('failed');
    if (result.status === 'failed')
      expect(result.error.message).toMatch(/only a LOCKED card can be set to ACTIVE/);
  });

  it('refuses an unknown status before sending, naming the field', async () => {
    const result = await core.call('update_card_status_b', {
      ...aliceCard(SEED.alice.virtual),
      status: 'FROZEN',
    });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid') expect(result.errors.map((e) => e.path)).toEqual(['status']);
  });
});
