import { createHash, createHmac } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { ServiceError } from '../../src/core/client/index.js';
import { defineTool } from '../../src/core/tool.js';
import { pending } from '../helpers/approvals.js';
import { manualClock } from '../helpers/clock.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { clientFor } from '../helpers/sandbox.js';

// A tool of the test whose id field checks nothing, as stored input from an older bankops would be:
// it shows that what cannot be sent is a definite failure, never an unknown outcome.
const looseCardDetails = defineTool({
  name: 'loose_card_details',
  title: 'Card details without id checks',
  description: 'Test only.',
  toolset: 'issuing_b',
  input: z.object({ cardholderId: z.string(), walletId: z.string(), cardId: z.string() }),
  output: z.object({ status: z.string() }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  async run(input, ctx) {
    const card = await ctx.client.issuingB.getCardDetails(input, { requestId: ctx.requestId });
    return { status: card.status };
  },
});

const POLICY = `
actors:
  - match: { cli: "*" }
    roles: [operator, approver]
rules:
  - tools: [loose_card_details]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - allow: [operator]
`;

let core: TestCore;
const clock = manualClock();
beforeAll(async () => {
  core = await createTestCore({ policyYaml: POLICY, extraTools: [looseCardDetails], clock });
});
afterAll(() => core.close());

const card = {
  cardholderId: 'chb_demo_alice',
  walletId: 'wal_demo_alice_usd',
  cardId: 'card_demo_alice_virtual',
};

describe('no poison', () => {
  it.each([
    ['a zero-width space', 'card_demo_alice_virtual\u200b'],
    ['a line break', 'card_demo_alice_virtual\r\nx-evil: 1'],
    ['an unpaired surrogate', 'card_\uD800'],
    ['a control character', 'card\u0007'],
  ])(
    'refuses an id holding %s as invalid input, before anything is sent or opened',
    async (_what, cardId) => {
      const before = core.sandbox.stats()['issuingB.updateCardStatus'] ?? 0;
      const result = await core.call('update_card_status_b', { ...card, cardId, status: 'STOLEN' });
      expect(result).toMatchObject({
        status: 'invalid',
        errors: [{ path: 'cardId', message: expect.stringContaining('printable ASCII') }],
      });
      expect(await core.executor.listApprovals({ tool: 'update_card_status_b' })).toEqual([]);
      expect(core.sandbox.stats()['issuingB.updateCardStatus'] ?? 0).toBe(before);
    },
  );

  it('calls a request the client cannot send not_sent, naming the header and never its value', async () => {
    const client = clientFor(core.sandbox);
    const error = await client.issuingB.getCardDetails({ ...card, cardId: 'card\u200b' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'not_sent', code: 'not_sent' });
    expect((error as ServiceError).serviceMessage).toBe(
      'header x-card-id holds a character that cannot be sent (U+200B)',
    );
    await client.close();
  });

  it('ends an approval whose request cannot be sent as failed (nothing sent), not unknown or stuck', async () => {
    const approval = pending(await core.call('loose_card_details', { ...card, cardId: 'card\u200b' }));
    // The approvals' clock stands still: a pause before a re-send would never end, so an answer at
    // all says nothing was sent again.
    const decided = await core.executor.approve(approval.id, core.approver);
    expect(decided).toMatchObject({
      status: 'ok',
      approval: {
        state: 'failed',
        error: { kind: 'not_sent', message: expect.stringContaining('cannot be sent') },
      },
    });
    // No re-sends of something that never left, and nothing left for recovery to retry.
    expect(clock.waiting).toBe(0);
    expect(await core.executor.recover()).toBe(0);
  });
});

describe('no secrets by derivation', () => {
  it('keeps no digest a PIN can be recovered from: the fingerprint of a keyed PIN reset is keyed by a file outside the database', async () => {
    const input = { cardId: 'card_demo_ava_physical', pin: '482913' };
    const result = await core.executor.execute({
      tool: 'reset_pin_a',
      input,
      actor: core.operator,
      idempotencyKey: 'reset-1',
    });
    expect(result.status).toBe('ok');
    const row = core.db
      .prepare("SELECT fingerprint FROM executions WHERE idempotency_key = 'reset-1'")
      .get() as { fingerprint: string };
    // A plain digest of the known input would give the PIN away to anyone trying the million PINs.
    const plain = (pin: string) =>
      createHash('sha256')
        .update(canonicalJson({ actor: core.operator.id, tool: 'reset_pin_a', input: { ...input, pin } }))
        .digest('hex');
    expect(row.fingerprint).toMatch(/^k1:[0-9a-f]{64}$/);
    expect(row.fingerprint).not.toContain(plain('482913'));
    const key = readFileSync(core.dbPath.replace(/\.db$/, '.key'), 'utf8').trim();
    expect(row.fingerprint).toBe(
      `k1:${createHmac('sha256', Buffer.from(key, 'hex'))
        .update(canonicalJson({ actor: core.operator.id, tool: 'reset_pin_a', input }))
        .digest('hex')}`,
    );
    expect(statSync(core.dbPath.replace(/\.db$/, '.key')).mode & 0o777).toBe(0o600);
    // Another PIN under the same key is another input, refused as such.
    const other = await core.executor.execute({
      tool: 'reset_pin_a',
      input: { ...input, pin: '111111' },
      actor: core.operator,
      idempotencyKey: 'reset-1',
    });
    expect(other).toMatchObject({
      status: 'invalid',
      message: expect.stringContaining('already used for a different'),
    });
  });
});
