import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/client/errors.js';
import { toFailure } from '../../src/core/run-tool.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());

const wallet = { cardholderId: 'chb_demo_bruno', currency: 'USD' };
const walletsOfBruno = async () =>
  ((await core.ok('list_wallets_b', { cardholderId: 'chb_demo_bruno' })).wallets as unknown[]).length;

describe('executor: idempotency keys', () => {
  it('runs concurrent calls with different keys as different operations', async () => {
    const before = await walletsOfBruno();
    const [a, b] = await Promise.all([
      core.executor.execute({
        tool: 'create_wallet_b',
        input: wallet,
        actor: core.operator,
        idempotencyKey: 'k1',
      }),
      core.executor.execute({
        tool: 'create_wallet_b',
        input: wallet,
        actor: core.operator,
        idempotencyKey: 'k2',
      }),
    ]);
    expect(a.status).toBe('ok');
    expect(b.status).toBe('ok');
    if (a.status !== 'ok' || b.status !== 'ok') return;
    expect(a.requestId).not.toBe(b.requestId);
    expect(await walletsOfBruno()).toBe(before + 2);
  });

  it('runs concurrent calls with the same key once, and replays the first result afterwards', async () => {
    const before = await walletsOfBruno();
    const same = () =>
      core.executor.execute({
        tool: 'create_wallet_b',
        input: wallet,
        actor: core.operator,
        idempotencyKey: 'k3',
      });
    const [a, b] = await Promise.all([same(), same()]);
    const replay = await same();
    expect(await walletsOfBruno()).toBe(before + 1);
    expect(b).toEqual(a);
    expect(replay).toMatchObject({ status: 'ok', requestId: a.status === 'ok' ? a.requestId : '' });
    // The repeats are on record too (the one that joined the first in flight, and the later one):
    // asked again, answered by the first request, nothing ran again.
    const entries = await core.audit.list({ tool: 'create_wallet_b', order: 'desc', limit: 3 });
    const first = [a.status === 'ok' ? a.requestId : ''];
    expect(entries.map((e) => [e.event, e.decision, e.outcome, e.requestIds])).toEqual([
      ['requested', 'allow', 'ok', first],
      ['requested', 'allow', 'ok', first],
      ['executed', 'allow', 'ok', first],
    ]);
    expect(entries[0]).toMatchObject({ actor: core.operator.id, input: wallet });
  });

  it('refuses a key reused with another input, and audits the refusal', async () => {
    const reused = await core.executor.execute({
      tool: 'create_wallet_b',
      input: { ...wallet, currency: 'EUR' },
      actor: core.operator,
      idempotencyKey: 'k3',
    });
    expect(reused).toMatchObject({ status: 'invalid', message: expect.stringContaining("'k3'") });
    const [last] = await core.audit.list({ tool: 'create_wallet_b', order: 'desc', limit: 1 });
    expect(last).toMatchObject({
      event: 'requested',
      decision: 'invalid',
      error: expect.stringContaining("'k3'"),
    });
  });
});

describe('executor: failures', () => {
  it('gives a failure a reason even when the service sent none, so it can be audited', () => {
    const failure = toFailure(
      new ServiceError({ kind: 'service', operation: 'payouts.create', message: '' }),
      [],
    );
    expect(failure.message).toBe('service failure without a message');
  });
});

describe('executor: input checks', () => {
  it('refuses fields the tool does not have, naming the one meant, and sends nothing', async () => {
    const mark = (await core.audit.head()).seq;
    const result = await core.call('update_cardholder_b', {
      cardholderId: 'chb_demo_bruno',
      Mobile: '91239999',
      favourite_colour: 'green',
    });
    expect(result).toMatchObject({
      status: 'invalid',
      errors: [
        { path: 'Mobile', message: 'unknown field; did you mean mobile?' },
        {
          path: 'favourite_colour',
          message: expect.stringMatching(/^unknown field; the fields are cardholderId, /),
        },
        // Without the misspelt field nothing is left to change, which the tool's own rule says too.
        { path: 'cardholderId', message: 'give at least one field to change besides cardholderId' },
      ],
    });
    const { cardholder } = await core.ok('get_cardholder_b', { cardholderId: 'chb_demo_bruno' });
    expect((cardholder as { mobile: string }).mobile).not.toBe('91239999');
    expect((await core.audit.list({ afterSeq: mark }))[0]).toMatchObject({
      decision: 'invalid',
      outcome: 'failed',
    });
  });

  it('says a missing field is required', async () => {
    const result = await core.call('get_account', {});
    expect(result).toMatchObject({ status: 'invalid', errors: [{ path: 'accountId', message: 'required' }] });
  });
});

describe('executor: one idempotency key, one input, across direct runs and approvals', () => {
  const card = {
    cardholderId: 'chb_demo_alice',
    walletId: 'wal_demo_alice_usd',
    cardId: 'card_demo_alice_locked',
  };
  const keyed = (status: string, key: string) =>
    core.executor.execute({
      tool: 'update_card_status_b',
      input: { ...card, status },
      actor: core.operator,
      idempotencyKey: key,
    });

  it('refuses a key used for a direct run when another input would open an approval, and the reverse', async () => {
    expect((await keyed('ACTIVE', 'one-key')).status).toBe('ok');
    const approval = await keyed('STOLEN', 'one-key');
    expect(approval).toMatchObject({
      status: 'invalid',
      message: "idempotency key 'one-key' was already used for a different update_card_status_b input",
    });
    const opened = await keyed('BLOCKED', 'two-key');
    expect(opened.status).toBe('pending_approval');
    const direct = await keyed('LOCKED', 'two-key');
    expect(direct).toMatchObject({ status: 'invalid' });
    if (direct.status === 'invalid' && opened.status === 'pending_approval') {
      expect(direct.message).toContain(`(approval ${opened.approvalId})`);
    }
    if (opened.status === 'pending_approval')
      await core.executor.cancel(opened.approvalId, core.operator, 'test');
  });

  it('refuses a key on a read, which would otherwise replay a stale answer', async () => {
    const read = await core.executor.execute({
      tool: 'get_cardholder_b',
      input: { cardholderId: 'chb_demo_alice' },
      actor: core.operator,
      idempotencyKey: 'read-key',
    });
    expect(read).toMatchObject({ status: 'invalid' });
    if (read.status === 'invalid') expect(read.message).toContain('get_cardholder_b only reads');
  });

  it('keeps the value of a misspelt field out of the audit log: it may be a secret', async () => {
    const mark = (await core.audit.head()).seq;
    const secret = 'whsec-misspelt-0123456789abcdef';
    const result = await core.call('update_subscription', {
      event_name: 'card_create',
      subscription_type: 'w',
      webhook_url: 'http://127.0.0.1:9/hook',
      x_api_kay: secret,
    });
    expect(result.status).toBe('invalid');
    const entries = await core.audit.list({ afterSeq: mark });
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries)).not.toContain(secret);
    expect(entries[0]?.input).toMatchObject({ x_api_kay: '[REDACTED]' });
  });
});
