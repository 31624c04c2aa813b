import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());

/** Seeded free cards of family A (docs/sandbox.md). */
const FIRST = '5300001000000012';
const SECOND = '5300001000000020';

const assign = (cardNumber: string) =>
  core.executor.execute({
    tool: 'assign_card_a',
    input: { cardholderId: 'cha_demo_chloe', card_number: cardNumber, card_currency: 'USD' },
    actor: core.operator,
    idempotencyKey: 'chloe-card',
  });

describe('an idempotency key and a secret input', () => {
  it('never answers "ok" for a second card number under a used key without assigning it', async () => {
    const first = await assign(FIRST);
    expect(first.status).toBe('ok');
    const assignsBefore = core.sandbox.stats()['issuingA.assignCard'] ?? 0;
    // Another card, the same key (a script that keys by cardholder): refused as another input, or done.
    const second = await assign(SECOND);
    const assigned = (core.sandbox.stats()['issuingA.assignCard'] ?? 0) > assignsBefore;
    expect({ status: second.status, assigned }).not.toEqual({ status: 'ok', assigned: false });
  });
});
