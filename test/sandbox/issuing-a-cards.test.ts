import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cardBody, DEMO, issuingA } from '../helpers/issuing-a.js';
import { type RunningSandbox, startTestSandbox, tokenFor } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let ia: ReturnType<typeof issuingA>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  ia = issuingA(sandbox, await tokenFor(sandbox));
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const [usd1, usd2, eur] = DEMO.inventory;

async function refused(res: Promise<{ status: number; body: { message: string } }>, ...fragments: string[]) {
  const r = await res;
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ status: 'error', code: 400 });
  for (const fragment of fragments) expect(r.body.message).toContain(fragment);
  return r.body.message;
}

const assign = (body: Record<string, unknown>) =>
  ia.post('/card/assign', {
    cardholder_id: DEMO.chloe,
    card_number: usd1.number,
    card_currency: 'USD',
    card_mode: 'SINGLE',
    createdBy: 'ops-bot',
    ...body,
  });

describe('issuing A: create card', () => {
  it('creates an active virtual card: 201 with data as an object {id}', async () => {
    const res = await ia.post('/card', cardBody(DEMO.chloe));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'success', code: 201 });
    expect(Array.isArray(res.body.data)).toBe(false);
    expect(res.body.data).toEqual({ id: expect.stringMatching(/^card_/) });
    // The card exists: its (empty) transaction list can be read.
    const txns = await ia.get(`/card/transaction?id=${res.body.data.id}`);
    expect(txns.body.data).toEqual({ has_more: false, items: [] });
  });

  it('creates a card without limits (program defaults apply)', async () => {
    const res = await ia.post('/card', cardBody(DEMO.ava, { limits: { limits: undefined } }));
    expect(res.status).toBe(201);
  });

  it('refuses card_type, purpose, allowed_transaction_count and is_personalized outside the spec', async () => {
    await refused(
      ia.post('/card', cardBody(DEMO.ava, { top: { card_type: 'PHYSICAL' } })),
      'card_type: must be VIRTUAL',
    );
    await refused(
      ia.post('/card', cardBody(DEMO.ava, { top: { program: { purpose: 'CONSUMER' } } })),
      'program.purpose: must be COMMERCIAL',
    );
    await refused(
      ia.post('/card', cardBody(DEMO.ava, { controls: { allowed_transaction_count: 'SINGLE' } })),
      'authorization_controls.allowed_transaction_count: must be MULTIPLE',
    );
    await refused(
      ia.post('/card', cardBody(DEMO.ava, { top: { is_personalized: true } })),
      'is_personalized: must be false',
    );
    await refused(
      ia.post('/card', cardBody(DEMO.ava, { top: { is_personalized: undefined } })),
      'is_personalized: is required',
    );
  });

  it('refuses bad limits, a missing currency and missing required fields', async () => {
    await refused(
      ia.post(
        '/card',
        cardBody(DEMO.ava, { limits: { limits: [{ amount: 0, interval: 'PER_TRANSACTION' }] } }),
      ),
      'authorization_controls.transaction_limits.limits[0].amount: must be greater than 0',
    );
    await refused(
      ia.post('/card', cardBody(DEMO.ava, { limits: { limits: [{ amount: 10, interval: 'DAILY' }] } })),
      'limits[0].interval: must be PER_TRANSACTION',
    );
    await refused(
      ia.post('/card', cardBody(DEMO.ava, { limits: { currency: undefined } })),
      'authorization_controls.transaction_limits.currency: is required',
    );
    const message = await refused(
      ia.post('/card', cardBody(DEMO.ava, { top: { request_id: undefined, created_by: undefined } })),
    );
    expect(message).toContain('request_id: is required');
    expect(message).toContain('created_by: is required');
  });

  it('refuses an unknown cardholder', async () => {
    const message = await refused(ia.post('/card', cardBody('cha_nope')));
    expect(message).toBe("cardholder 'cha_nope' not found");
  });

  it('replays a repeated x-request-id with the same card; the body request_id is no idempotency key', async () => {
    const body = cardBody(DEMO.ava);
    const requestId = randomUUID();
    const first = await ia.post('/card', body, { 'x-request-id': requestId });
    const sameHeader = await ia.post('/card', body, { 'x-request-id': requestId });
    expect(first.status).toBe(201);
    expect(sameHeader.body).toEqual(first.body);

    // The same body (same request_id) under another x-request-id is a new request: a second card.
    const sameBodyId = await ia.post('/card', body);
    expect(sameBodyId.status).toBe(201);
    expect(sameBodyId.body.data.id).not.toBe(first.body.data.id);
    for (const id of [first.body.data.id, sameBodyId.body.data.id]) {
      expect((await ia.get(`/card/transaction?id=${id}`)).status).toBe(200);
    }
    // A different body under a used x-request-id is refused by the x-request-id rule.
    const changed = await ia.post(
      '/card',
      { ...body, created_by: 'someone-else' },
      { 'x-request-id': requestId },
    );
    expect(changed.status).toBe(400);
  });
});

describe('issuing A: assign and activate physical cards', () => {
  it('assigns an inventory card (200, data [{card_id}]) that then needs activation', async () => {
    const res = await assign({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    expect(res.body.data).toEqual([{ card_id: expect.stringMatching(/^card_/) }]);
    const cardId = res.body.data[0].card_id as string;
    // Not active yet: the PIN can only be set by activation.
    await refused(ia.post(`/card/pin?id=${cardId}`, { pin: '2468' }), 'not activated');
  });

  it('accepts the creator as created_by too, and requires one of the spellings', async () => {
    expect((await assign({ createdBy: undefined, created_by: 'ops-bot' })).status).toBe(200);
    await refused(assign({ card_number: usd2.number, createdBy: undefined }), 'createdBy: is required');
  });

  it('refuses an unknown or already assigned number without echoing it', async () => {
    const unknown = await refused(
      assign({ card_number: '4000123412341234' }),
      'card number not found in inventory',
    );
    expect(unknown).not.toContain('4000123412341234');
    expect((await assign({})).status).toBe(200);
    const twice = await refused(assign({ cardholder_id: DEMO.ava }), 'already assigned');
    expect(twice).not.toContain(usd1.number);
    const seeded = await refused(assign({ card_number: '5300001000000046' }), 'already assigned');
    expect(seeded).not.toContain('5300001000000046');
  });

  it('refuses a malformed number, a wrong currency, card_mode other than SINGLE and an unknown cardholder', async () => {
    const short = await refused(assign({ card_number: '1234' }), 'card_number: must be 16 digits');
    expect(short).not.toContain('1234');
    await refused(assign({ card_number: eur.number, card_currency: 'USD' }), 'card_currency', 'EUR');
    await refused(assign({ card_mode: 'MULTIPLE' }), 'card_mode: must be SINGLE');
    await refused(assign({ cardholder_id: 'cha_nope' }), "cardholder 'cha_nope' not found");
  });

  it('activates with the activation code and a PIN, once', async () => {
    const cardId = (await assign({ card_number: eur.number, card_currency: 'EUR' })).body.data[0].card_id;
    const wrong = await refused(
      ia.post(`/card/activate?id=${cardId}`, { activation_code: '000000', pin: '4321' }),
      'activation_code',
    );
    expect(wrong).not.toContain('000000');
    expect(wrong).not.toContain(eur.code);
    expect(wrong).not.toContain('4321');

    const badPin = await refused(
      ia.post(`/card/activate?id=${cardId}`, { activation_code: eur.code, pin: '12' }),
      'pin: must be 4 to 6 digits',
    );
    expect(badPin).not.toContain(eur.code);

    const ok = await ia.post(`/card/activate?id=${cardId}`, { activation_code: eur.code, pin: '4321' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'success', message: expect.any(String), code: 200 });

    await refused(
      ia.post(`/card/activate?id=${cardId}`, { activation_code: eur.code, pin: '4321' }),
      'already activated',
    );
  });

  it('refuses activation of a virtual card, of an unknown card and without the id', async () => {
    await refused(
      ia.post(`/card/activate?id=${DEMO.avaVirtualCard}`, { activation_code: '123456', pin: '1234' }),
      'virtual card',
    );
    await refused(
      ia.post('/card/activate?id=card_nope', { activation_code: '1', pin: '1234' }),
      "card 'card_nope'",
    );
    await refused(ia.post('/card/activate', { activation_code: '1', pin: '1234' }), 'query parameter id');
    await refused(
      ia.post(`/card/activate?id=${DEMO.avaPhysicalCard}`, { pin: '1234' }),
      'activation_code: is required',
    );
  });
});

describe('issuing A: PIN reset', () => {
  it('resets the PIN of an active physical card ({code, status, message})', async () => {
    const res = await ia.post(`/card/pin?id=${DEMO.avaPhysicalCard}`, { pin: '864209' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', message: expect.any(String), code: 200 });
  });

  it('refuses a virtual card, a bad PIN and a missing PIN, never echoing the PIN', async () => {
    await refused(ia.post(`/card/pin?id=${DEMO.avaVirtualCard}`, { pin: '2468' }), 'virtual card');
    const bad = await refused(
      ia.post(`/card/pin?id=${DEMO.avaPhysicalCard}`, { pin: '12ab' }),
      'pin: must be',
    );
    expect(bad).not.toContain('12ab');
    await refused(ia.post(`/card/pin?id=${DEMO.avaPhysicalCard}`, {}), 'pin: is required');
    await refused(ia.post(`/card/pin?id=${DEMO.avaPhysicalCard}`, { pin: 1234 }), 'pin: must be a string');
  });
});

describe('issuing A: card transactions', () => {
  const list = (query: string) => ia.get(`/card/transaction?id=${DEMO.avaVirtualCard}${query}`);

  it('pages the seeded transactions newest first, data {has_more, items}', async () => {
    const first = await list('');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'success', code: 200 });
    expect(first.body.data.has_more).toBe(true);
    expect(first.body.data.items).toHaveLength(10);
    expect(first.body.data.items[0].transaction_id).toBe('ctx_demo_000012');
    const second = await list('&page_num=2');
    expect(second.body.data).toMatchObject({ has_more: false });
    expect(second.body.data.items.map((t: { transaction_id: string }) => t.transaction_id)).toEqual([
      'ctx_demo_000002',
      'ctx_demo_000001',
    ]);
    const small = await list('&page_size=5&page_num=3');
    expect(small.body.data).toMatchObject({ has_more: false });
    expect(small.body.data.items).toHaveLength(2);
  });

  it('caps a page_size above 100 to 100 instead of refusing it; page_size 0 is refused', async () => {
    const all = await list('&page_size=1000');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data).toMatchObject({ has_more: false });
    expect(all.body.data.items).toHaveLength(12);
    await refused(list('&page_size=0'), 'page_size must be at least 1');
  });

  it('carries every item field of the spec', async () => {
    const items = (await list('&page_size=12')).body.data.items as Record<string, unknown>[];
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(
        [
          'acquiring_institution_identifier',
          'auth_code',
          'billing_amount',
          'billing_currency',
          'card_id',
          'card_nickname',
          'client_data',
          'digital_wallet_token_id',
          'failure_reason',
          'lifecycle_id',
          'masked_card_number',
          'matched_authorizations',
          'merchant',
          'network_transaction_id',
          'posted_date',
          'retrieval_ref',
          'risk_details',
          'status',
          'transaction_amount',
          'transaction_currency',
          'transaction_date',
          'transaction_id',
          'transaction_type',
        ].sort(),
      );
      expect(Object.keys(item.merchant as object).sort()).toEqual(
        ['category_code', 'city', 'country', 'identifier', 'name', 'postcode', 'state'].sort(),
      );
      expect(item.risk_details).toEqual({
        risk_actions_performed: expect.any(Array),
        risk_factors: expect.any(Array),
        three_dsecure_outcome: expect.any(String),
      });
      expect(item.transaction_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
      expect(item.masked_card_number).toMatch(/^\d{6}\*{6}\d{4}$/);
    }
    expect(items.some((t) => t.transaction_type === 'REFUND')).toBe(true);
    expect(items.find((t) => t.failure_reason === 'INSUFFICIENT_FUNDS')?.status).toBe('DECLINED');
  });

  it('filters by a from/to date range, both days included', async () => {
    const res = await list('&from_created_at=2026-09-06&to_created_at=2026-09-16');
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((t: { transaction_id: string }) => t.transaction_id)).toEqual([
      'ctx_demo_000004',
      'ctx_demo_000003',
      'ctx_demo_000002',
    ]);
  });

  it('refuses one date without the other, bad dates and a reversed range', async () => {
    await refused(
      list('&from_created_at=2026-09-01'),
      'from_created_at and to_created_at must be given together',
    );
    await refused(list('&to_created_at=2026-09-01'), 'given together');
    await refused(
      list('&from_created_at=2026-09-01&to_created_at=2026-13-01'),
      'to_created_at must be a real date',
    );
    await refused(list('&from_created_at=2026-10-01&to_created_at=2026-09-01'), 'must not be after');
    await refused(list('&page_num=0'), 'page_num');
  });

  it('refuses a missing or unknown card id', async () => {
    await refused(ia.get('/card/transaction'), 'missing required query parameter id');
    await refused(ia.get('/card/transaction?id=card_nope'), "card 'card_nope' not found");
  });
});
