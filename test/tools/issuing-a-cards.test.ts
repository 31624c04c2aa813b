import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteResult } from '../../src/core/results.js';
import type { ToolContext } from '../../src/core/tool.js';
import { createCardA } from '../../src/tools/issuing-a/cards.js';
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

/** Seeded inventory (docs/sandbox.md): free cards with their activation codes, and Ava's assigned one. */
const FREE_USD = { number: '5300001000000012', code: '739215' };
const FREE_USD_2 = { number: '5300001000000020', code: '481620' };
const AVAS = '5300001000000046';
/** Six digits, so an accidental match inside an unrelated number is unlikely. */
const PIN = '582916';
const NEW_PIN = '604173';

/**
 * Runs a call and checks that the given secret values appear nowhere in its result or in the audit
 * entries it wrote, and that those entries exist and hold the secret fields redacted.
 */
async function callKeepingSecrets(
  tool: string,
  input: Record<string, unknown>,
  secrets: readonly string[],
): Promise<ExecuteResult> {
  const mark = (await core.audit.head()).seq;
  const result = await core.call(tool, input);
  const entries = await core.audit.list({ afterSeq: mark });
  expect(entries.length).toBeGreaterThan(0);
  // Hashes, request ids and durations are random digits: a six-digit secret could turn up in one
  // by chance (a duration of 3.79111999… ms once held "111999").
  const random = new Set(['hash', 'prevHash', 'durationMs', 'requestId', 'requestIds']);
  const visible = JSON.stringify({ result, entries }, (key, value: unknown) =>
    random.has(key) ? undefined : value,
  );
  for (const field of secrets) {
    expect(visible).not.toContain(String(input[field]));
    for (const entry of entries) expect((entry.input as Record<string, unknown>)[field]).toBe('[REDACTED]');
  }
  return result;
}

async function assign(cardNumber: string, currency = 'USD'): Promise<string> {
  const out = await core.ok('assign_card_a', {
    cardholderId: 'cha_demo_chloe',
    card_number: cardNumber,
    card_currency: currency,
  });
  expect(out.cardId).toMatch(/\S/);
  return out.cardId as string;
}

describe('family A cards', () => {
  it('create_card_a issues a virtual card whose (empty) transactions can be read', async () => {
    const { cardId } = await core.ok('create_card_a', {
      cardholderId: 'cha_demo_chloe',
      currency: 'USD',
      per_transaction_limit: 750.5,
    });
    expect(cardId).toMatch(/\S/);
    const page = await core.ok('list_card_transactions_a', { cardId });
    expect(page).toEqual({ has_more: false, items: [] });
  });

  it('create_card_a: the body request_id is no idempotency key, each execution makes a new card', async () => {
    const input = { cardholderId: 'cha_demo_chloe', currency: 'USD', request_id: 'card-req-0001' };
    const first = await core.ok('create_card_a', input);
    const again = await core.ok('create_card_a', input);
    const a = await core.ok('create_card_a', { cardholderId: 'cha_demo_chloe', currency: 'USD' });
    const b = await core.ok('create_card_a', { cardholderId: 'cha_demo_chloe', currency: 'USD' });
    expect(new Set([first.cardId, again.cardId, a.cardId, b.cardId]).size).toBe(4);
  });

  it('create_card_a sends the execution request id, so a re-sent execution issues no second card', async () => {
    const ctx = (requestId: string): ToolContext => ({
      client: core.client,
      defaults: {
        companyCode: 'CMP-DEMO',
        programCode: 'PRG-DEMO',
        agentCode: 'AGT-DEMO',
        subagentCode: 'SUB-DEMO',
      },
      actorName: 'cli:operator',
      requestId,
      once: (_key, produce) => produce(),
      progress: () => {},
    });
    const input = createCardA.input.parse({ cardholderId: 'cha_demo_chloe', currency: 'USD' });
    const requestId = randomUUID();
    const first = await createCardA.run(input, ctx(requestId));
    const resent = await createCardA.run(input, ctx(requestId));
    const other = await createCardA.run(input, ctx(randomUUID()));
    expect(resent.cardId).toBe(first.cardId);
    expect(other.cardId).not.toBe(first.cardId);
  });

  it('create_card_a: a refusal by the service is failed with its message', async () => {
    const result = await core.call('create_card_a', { cardholderId: 'cha_nobody', currency: 'USD' });
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'issuingA.createCard' },
    });
    if (result.status === 'failed') expect(result.error.message).toMatch(/cha_nobody|cardholder/i);
  });

  it('assign, activate, then reset the PIN of a physical card', async () => {
    const cardId = await assign(FREE_USD.number);
    // Not active yet: the PIN can only be reset once activation has set the first one.
    const early = await core.call('reset_pin_a', { cardId, pin: NEW_PIN });
    expect(early.status).toBe('failed');

    const activated = await core.ok('activate_card_a', { cardId, activation_code: FREE_USD.code, pin: PIN });
    expect(activated).toMatchObject({ cardId, status: 'success', code: 200 });
    const reset = await callKeepingSecrets('reset_pin_a', { cardId, pin: NEW_PIN }, ['pin']);
    expect(reset).toMatchObject({ status: 'ok', output: { cardId, status: 'success', code: 200 } });
    // Activation took effect: a second one is refused.
    const twice = await callKeepingSecrets(
      'activate_card_a',
      { cardId, activation_code: FREE_USD.code, pin: PIN },
      ['activation_code', 'pin'],
    );
    expect(twice.status).toBe('failed');
  });

  it('assign_card_a: an assigned card is refused with the service message, the number kept secret', async () => {
    const result = await callKeepingSecrets(
      'assign_card_a',
      { cardholderId: 'cha_demo_chloe', card_number: AVAS, card_currency: 'USD' },
      ['card_number'],
    );
    expect(result).toMatchObject({ status: 'failed', error: { kind: 'service', httpStatus: 400 } });
    if (result.status === 'failed') expect(result.error.message.length).toBeGreaterThan(0);
  });

  it('activate_card_a: a wrong activation code is refused and neither code nor PIN leaks', async () => {
    const cardId = await assign(FREE_USD_2.number);
    const result = await callKeepingSecrets(
      'activate_card_a',
      { cardId, activation_code: '111999', pin: PIN },
      ['activation_code', 'pin'],
    );
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'issuingA.activateCard' },
    });
    if (result.status === 'failed') expect(result.error.message).toMatch(/activation/i);
    // The refusal changed nothing: the right code still activates the card.
    await core.ok('activate_card_a', { cardId, activation_code: FREE_USD_2.code, pin: PIN });
  });

  it('reset_pin_a: a virtual card has no PIN and is refused', async () => {
    const result = await callKeepingSecrets(
      'reset_pin_a',
      { cardId: 'card_demo_ava_virtual', pin: NEW_PIN },
      ['pin'],
    );
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'issuingA.resetPin' },
    });
  });

  it('refuses malformed secrets as invalid without echoing them', async () => {
    const badNumber = '5300-0010-0000-0012';
    const assignResult = await callKeepingSecrets(
      'assign_card_a',
      { cardholderId: 'cha_demo_chloe', card_number: badNumber, card_currency: 'usd' },
      ['card_number'],
    );
    expect(assignResult.status).toBe('invalid');
    if (assignResult.status === 'invalid') {
      expect(assignResult.errors.map((e) => e.path).sort()).toEqual(['card_currency', 'card_number']);
    }

    const pinResult = await core.call('reset_pin_a', { cardId: 'card_demo_ava_physical', pin: '12ab' });
    expect(pinResult).toMatchObject({
      status: 'invalid',
      errors: [{ path: 'pin', message: 'must be digits only' }],
    });
  });
});

describe('family A card transactions', () => {
  it('list_card_transactions_a pages newest first', async () => {
    const page = await core.ok('list_card_transactions_a', { cardId: 'card_demo_ava_virtual', page_size: 5 });
    expect(page.has_more).toBe(true);
    const ids = (page.items as { transaction_id: string }[]).map((t) => t.transaction_id);
    expect(ids).toEqual([
      'ctx_demo_000012',
      'ctx_demo_000011',
      'ctx_demo_000010',
      'ctx_demo_000009',
      'ctx_demo_000008',
    ]);
    expect(page.items).toContainEqual(
      expect.objectContaining({ transaction_id: 'ctx_demo_000010', failure_reason: 'INSUFFICIENT_FUNDS' }),
    );
    const last = await core.ok('list_card_transactions_a', {
      cardId: 'card_demo_ava_virtual',
      page_size: 5,
      page_num: 3,
    });
    expect(last.has_more).toBe(false);
    expect((last.items as unknown[]).length).toBe(2);
  });

  it('list_card_transactions_a filters by a date range, both days included', async () => {
    // One transaction every five days from 2026-09-01: 09-01, 09-06 and 09-11 fall in this range.
    const page = await core.ok('list_card_transactions_a', {
      cardId: 'card_demo_ava_virtual',
      from_created_at: '2026-09-01',
      to_created_at: '2026-09-11',
    });
    expect((page.items as { transaction_id: string }[]).map((t) => t.transaction_id)).toEqual([
      'ctx_demo_000003',
      'ctx_demo_000002',
      'ctx_demo_000001',
    ]);
  });

  it('list_card_transactions_a: one date alone is invalid; a reversed range is failed', async () => {
    const alone = await core.call('list_card_transactions_a', {
      cardId: 'card_demo_ava_virtual',
      from_created_at: '2026-09-01',
    });
    expect(alone).toMatchObject({
      status: 'invalid',
      errors: [{ path: 'to_created_at', message: 'from_created_at and to_created_at go together' }],
    });
    const reversed = await core.call('list_card_transactions_a', {
      cardId: 'card_demo_ava_virtual',
      from_created_at: '2026-10-01',
      to_created_at: '2026-09-01',
    });
    expect(reversed).toMatchObject({ status: 'failed', error: { kind: 'service', httpStatus: 400 } });
  });
});
