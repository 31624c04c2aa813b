import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlertPost, type BalanceAlert, BalanceAlerts } from '../../../src/core/alerts/index.js';
import { AuditLog } from '../../../src/core/audit/index.js';
import type { ServiceClient } from '../../../src/core/client/index.js';
import { createLogger } from '../../../src/core/log.js';
import { parsePolicyText } from '../../../src/core/policy/index.js';
import type { Storage } from '../../../src/core/store/index.js';
import { contractBackends } from '../../helpers/backends.js';
import { injectFault } from '../../helpers/client-http.js';
import { type ManualClock, manualClock } from '../../helpers/clock.js';
import { clientFor, type RunningSandbox, raw, startTestSandbox } from '../../helpers/sandbox.js';

// The alert store through its interface, and one check over it, on SQLite and on PostgreSQL: two
// replicas (two connections) on one database each.

const BACKENDS = await contractBackends('alerts');
let sandbox: RunningSandbox;
let client: ServiceClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = clientFor(sandbox);
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const alert = (id: string, changes: Partial<BalanceAlert> = {}): BalanceAlert => ({
  id,
  currency: 'EUR',
  thresholdMinor: 2_000_000,
  channel: 'C0TREASURY',
  createdBy: 'slack:U1',
  createdAt: '2026-11-26T12:00:00.000Z',
  level: 'unknown',
  readFailing: false,
  posts: 0,
  checkedAt: null,
  ...changes,
});

const policy = parsePolicyText(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'policy', 'default.yaml'), 'utf8'),
  'default.yaml',
);

/** The balance alerts on `storage`, checked every 5 minutes on `clock`; log lines into `lines` when given. */
function balanceAlerts(storage: Storage, clock: ManualClock, lines?: string[]): BalanceAlerts {
  return new BalanceAlerts({
    storage,
    audit: new AuditLog(storage),
    client,
    policy: () => policy,
    companyCode: sandbox.credentials.companyId,
    clock,
    intervalMs: 300_000,
    ...(lines === undefined ? {} : { log: createLogger('info', (line) => lines.push(line)) }),
  });
}

describe.each(BACKENDS)('balance alerts on $name', (backend) => {
  const twoReplicas = async (): Promise<[Storage, Storage]> => {
    const [a, b] = await backend.twoReplicas();
    return [a.storage, b.storage];
  };
  it('keeps an alert whole, amounts past 2^31 minor units included, and forgets it when removed', async () => {
    const [a, b] = await twoReplicas();
    const big = alert('alr_000000000b', {
      thresholdMinor: 9_000_000_000_000,
      currency: 'JPY',
      readFailing: true,
    });
    await a.transaction(async (tx) => {
      await tx.alerts.add(alert('alr_000000000a'));
      await tx.alerts.add(big);
    });
    expect(await b.read((s) => s.alerts.get('alr_000000000b'))).toEqual(big);
    expect((await b.read((s) => s.alerts.list())).map((x) => x.id)).toEqual([
      'alr_000000000a',
      'alr_000000000b',
    ]);
    expect(await b.transaction((tx) => tx.alerts.remove('alr_000000000a'))).toBe(true);
    expect(await a.transaction((tx) => tx.alerts.remove('alr_000000000a'))).toBe(false);
    expect(await a.read((s) => s.alerts.get('alr_000000000a'))).toBeUndefined();
  });

  it('applies a check to the state it was decided from only: of two replicas, one', async () => {
    const [a, b] = await twoReplicas();
    await a.transaction((tx) => tx.alerts.add(alert('alr_00000000cc')));
    const change = {
      level: 'below' as const,
      readFailing: false,
      posts: 1,
      checkedAt: '2026-11-26T12:05:00.000Z',
    };
    const results = await Promise.all([
      a.transaction((tx) => tx.alerts.update('alr_00000000cc', 0, change)),
      b.transaction((tx) => tx.alerts.update('alr_00000000cc', 0, change)),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await b.read((s) => s.alerts.get('alr_00000000cc'))).toMatchObject(change);
  });

  it('checks every alert with one read of the balances and posts a crossing once', async () => {
    const [storage] = await twoReplicas();
    const clock = manualClock('2026-11-26T12:00:00Z');
    const alerts = balanceAlerts(storage, clock);
    const operator = { id: 'cli:ops', frontEnd: 'cli' as const, cliUser: 'ops' };
    // EUR holds 120,000 at the sandbox: under the first, above the second; USD above the third.
    for (const [currency, amount] of [
      ['EUR', 130_000],
      ['EUR', 1_000],
      ['USD', 5],
    ] as const) {
      const added = await alerts.add(operator, { currency, amount, channel: 'C0TREASURY' });
      expect(added.status).toBe('ok');
    }
    const posts: AlertPost[] = [];
    const reads = () => sandbox.stats()['accounts.balances'] ?? 0;
    const before = reads();
    for (let i = 0; i < 3; i += 1) {
      await alerts.check(async (post) => {
        posts.push(post);
      });
      clock.advance(300_000);
    }
    expect(reads() - before).toBe(3);
    expect(
      posts.map((p) => [p.kind, p.alert.thresholdMinor, p.balance, p.dedupeKey.replace(/alr_\w+/, 'id')]),
    ).toEqual([['below', 13_000_000, { amount: 120_000, currency: 'EUR' }, 'balance-alert:id:1:below']]);
    // A post that could not be queued (the database failed) leaves that alert's state as it was,
    // and the other alerts are checked all the same: the next check makes the same post under the
    // same key, which the outbox keeps once.
    await storage.transaction((tx) => tx.alerts.add(alert('alr_00000000dd', { thresholdMinor: 99_000_000 })));
    await storage.transaction((tx) => tx.alerts.add(alert('alr_00000000ee', { thresholdMinor: 98_000_000 })));
    const lines: string[] = [];
    const logged = balanceAlerts(storage, clock, lines);
    const failing: AlertPost[] = [];
    expect(
      await logged.check(async (post) => {
        if (post.alert.id === 'alr_00000000dd') throw new Error('the outbox could not be written');
        failing.push(post);
      }),
    ).toBe(1);
    expect(failing.map((p) => p.dedupeKey)).toEqual(['balance-alert:alr_00000000ee:1:below']);
    expect(await storage.read((s) => s.alerts.get('alr_00000000ee'))).toMatchObject({
      posts: 1,
      level: 'below',
    });
    expect(await storage.read((s) => s.alerts.get('alr_00000000dd'))).toMatchObject({
      posts: 0,
      level: 'unknown',
    });
    expect(lines.join('')).toContain('alr_00000000dd');
    await alerts.check(async (post) => {
      posts.push(post);
    });
    expect(posts.at(-1)?.dedupeKey).toBe('balance-alert:alr_00000000dd:1:below');
    await storage.transaction((tx) => tx.alerts.remove('alr_00000000ee'));
    const stored = await storage.read((s) => s.alerts.list());
    expect(stored.map((x) => [x.currency, x.level, x.posts])).toEqual(
      expect.arrayContaining([
        ['EUR', 'below', 1],
        ['EUR', 'above', 0],
        ['USD', 'above', 0],
        ['EUR', 'below', 1],
      ]),
    );
  });

  it('posts what a later check finds under its own key when the state of an earlier post was lost', async () => {
    const [storage] = await twoReplicas();
    const clock = manualClock('2026-11-26T12:00:00Z');
    const lines: string[] = [];
    const alerts = balanceAlerts(storage, clock, lines);
    await storage.transaction((tx) => tx.alerts.add(alert('alr_00000000ff', { thresholdMinor: 99_000_000 })));
    // The read fails: `read-failed` is post 1, said in the log once for the check.
    await injectFault(sandbox, { path: '/svc/banking/api/v1/accounts/balances', method: 'GET', status: 503 });
    const keys: string[] = [];
    await alerts.check(async (post) => {
      keys.push(post.dedupeKey);
    });
    const warnings = lines.filter((line) => line.includes('balances could not be read'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain(sandbox.credentials.companyId);
    // Its state write is lost (as if the database failed right after the post was queued)...
    await storage.transaction((tx) =>
      tx.alerts.update('alr_00000000ff', 1, {
        level: 'unknown',
        readFailing: false,
        posts: 0,
        checkedAt: '2026-11-26T12:00:00.000Z',
      }),
    );
    await raw(sandbox, 'DELETE', '/_sandbox/faults');
    clock.advance(300_000);
    // ...and the next check, which reads the balance under the threshold, posts `below` as post 1:
    // a key of its own, which the outbox does not take for the `read-failed` one.
    await alerts.check(async (post) => {
      keys.push(post.dedupeKey);
    });
    expect(keys).toEqual([
      'balance-alert:alr_00000000ff:1:read-failed',
      'balance-alert:alr_00000000ff:1:below',
    ]);
    expect(new Set(keys).size).toBe(2);
  });
});
