import { describe, expect, it } from 'vitest';
import type { Directories } from '../../../src/core/store/backend.js';
import { WebhookKeys } from '../../../src/core/webhooks.js';
import { contractBackends } from '../../helpers/backends.js';

const BACKENDS = await contractBackends('directories', {
  truncate: 'TRUNCATE payees, payee_payouts, cards, service_webhook_keys',
});

/** The payee and card directories and the webhook keys, through their interfaces, on every backend. */
describe.each(BACKENDS)('$name', (backend) => {
  const twoReplicas = async (): Promise<[Directories, Directories]> => {
    const [a, b] = await backend.twoReplicas();
    return [a.directories, b.directories];
  };
  it('the payee directory remembers a payee, replaces what it knew, and lists the ids in order', async () => {
    const [a, b] = await twoReplicas();
    const [one, two] = [a.payees, b.payees];
    expect(await one.get('ben_2')).toBeUndefined();
    expect(await one.ids()).toEqual([]);
    await one.remember({ id: 'ben_2', name: 'Rhein GmbH', country: 'DE', rail: 'SWIFT', currency: '' });
    await two.remember({ id: 'ben_1', name: 'Acme', accountMasked: '••••6789' });
    expect(await two.get('ben_2')).toEqual({ id: 'ben_2', name: 'Rhein GmbH', country: 'DE', rail: 'SWIFT' });
    await two.remember({ id: 'ben_2', name: 'Rhein Maschinenbau GmbH' });
    expect(await one.get('ben_2')).toEqual({ id: 'ben_2', name: 'Rhein Maschinenbau GmbH' });
    expect(await one.ids()).toEqual(['ben_1', 'ben_2']);
  });

  it('the payee directory keeps a payee history and counts payouts per currency, each request once', async () => {
    const [a, b] = await twoReplicas();
    const by = { actorId: 'mcp:ci-agent', person: 'mcp:ci-agent', frontEnd: 'mcp' };
    await a.payees.remember({
      id: 'ben_9',
      name: 'ACME GmbH',
      accountMasked: '••••1234',
      changes: [{ kind: 'created', at: '2026-11-20T10:00:00.000Z', by, approvalId: 'apr_1' }],
    });
    expect((await b.payees.all()).map((p) => p.changes?.[0]?.by.actorId)).toEqual(['mcp:ci-agent']);
    expect(await b.payees.payouts('ben_9')).toEqual({ count: 0, totals: [] });
    const payout = {
      beneficiaryId: 'ben_9',
      currency: 'EUR',
      requestId: 'r1',
      amount: 100.5,
      at: '2026-11-21T10:00:00.000Z',
    };
    await a.payees.notePayout(payout);
    await b.payees.notePayout(payout);
    await b.payees.notePayout({ ...payout, requestId: 'r2', amount: 20, at: '2026-11-22T10:00:00.000Z' });
    await b.payees.notePayout({
      ...payout,
      requestId: 'r3',
      currency: 'USD',
      amount: 7,
      at: '2026-11-23T10:00:00.000Z',
    });
    expect(await a.payees.payouts('ben_9')).toEqual({
      count: 3,
      totals: [
        { amount: 120.5, currency: 'EUR' },
        { amount: 7, currency: 'USD' },
      ],
      first: '2026-11-21T10:00:00.000Z',
      last: '2026-11-23T10:00:00.000Z',
    });
  });

  it('the card directory remembers cards seen together (the later of two entries wins), keeps the last four a later answer lacks', async () => {
    const [a, b] = await twoReplicas();
    const [one, two] = [a.cards, b.cards];
    await one.remember([
      { cardId: 'crd_1', cardholderId: 'chd_1', walletId: 'wal_1', lastFour: '4821' },
      { cardId: 'crd_2', cardholderId: 'chd_0', walletId: 'wal_0' },
      { cardId: 'crd_2', cardholderId: 'chd_1', walletId: 'wal_1' },
    ]);
    await two.remember([{ cardId: 'crd_1', cardholderId: 'chd_1', walletId: 'wal_2' }]);
    expect(await one.find('crd_1')).toEqual({
      cardId: 'crd_1',
      cardholderId: 'chd_1',
      walletId: 'wal_2',
      lastFour: '4821',
    });
    expect(await two.find('crd_2')).toEqual({ cardId: 'crd_2', cardholderId: 'chd_1', walletId: 'wal_1' });
    expect(await two.find('crd_3')).toBeUndefined();
    // Twice in one call, the later without its last four: the earlier's are kept, as across calls.
    await two.remember([
      { cardId: 'crd_3', cardholderId: 'chd_1', walletId: 'wal_1', lastFour: '1111' },
      { cardId: 'crd_3', cardholderId: 'chd_2', walletId: 'wal_2' },
    ]);
    expect(await one.find('crd_3')).toEqual({
      cardId: 'crd_3',
      cardholderId: 'chd_2',
      walletId: 'wal_2',
      lastFour: '1111',
    });
  });

  it('webhook keys match a key to its event and channel, keep only the newest, and forget an event', async () => {
    const [a, b] = await twoReplicas();
    const [one, two] = [new WebhookKeys(a.webhookKeys), new WebhookKeys(b.webhookKeys)];
    await one.add('old-key', { eventName: 'kyc_complete', channel: 'C1', createdBy: 'cli:ops' });
    await one.add('new-key', { eventName: 'kyc_complete', channel: 'C2', createdBy: 'cli:ops' });
    await one.add('card-key', { eventName: 'card_status_changed', channel: 'C3', createdBy: 'cli:ops' });
    // Only digests are kept: the keys themselves are nowhere in the store.
    const stored = await a.webhookKeys.all();
    expect(stored).toHaveLength(3);
    expect(JSON.stringify(stored)).not.toMatch(/old-key|new-key|card-key/);
    expect(await two.match('old-key')).toEqual({ eventName: 'kyc_complete', channel: 'C1' });
    await two.keepOnly('kyc_complete', 'new-key');
    expect(await one.match('old-key')).toBeUndefined();
    expect(await one.match('new-key')).toEqual({ eventName: 'kyc_complete', channel: 'C2' });
    await one.remove('new-key');
    expect(await two.match('new-key')).toBeUndefined();
    await two.forgetEvent('card_status_changed');
    expect(await one.match('card-key')).toBeUndefined();
  });
});
