import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertBook, type AlertPost, type BalanceAlert, checkAlerts } from '../../../src/core/alerts/index.js';
import { AuditLog } from '../../../src/core/audit/index.js';
import type { ServiceClient } from '../../../src/core/client/index.js';
import { Executor } from '../../../src/core/executor.js';
import { createLogger } from '../../../src/core/log.js';
import type { Actor } from '../../../src/core/policy/index.js';
import { defaultPolicyPath, PolicyStore } from '../../../src/core/policy/index.js';
import type { Storage } from '../../../src/core/store/index.js';
import { openSqlite } from '../../../src/core/store/sqlite/backend.js';
import { createRegistry } from '../../../src/tools/index.js';
import { contractBackends } from '../../helpers/backends.js';
import { injectFault } from '../../helpers/client-http.js';
import { type ManualClock, manualClock } from '../../helpers/clock.js';
import { clientFor, type RunningSandbox, raw, startTestSandbox } from '../../helpers/sandbox.js';

// The alert store through its interface, and one check over it, on SQLite and on PostgreSQL: two
// replicas (two connections) on one database each.

const BACKENDS = await contractBackends('alerts');
const dir = mkdtempSync(join(tmpdir(), 'bankops-alerts-'));
// The calls here (the balances, alerts) see no card: the directory stays empty.
const noCards = openSqlite(':memory:');
let sandbox: RunningSandbox;
let client: ServiceClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = clientFor(sandbox);
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
  await noCards.close();
  rmSync(dir, { recursive: true, force: true });
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

// The shipped policy: its `system: alerts` entry is what lets the check read the balances.
const policy = PolicyStore.load(defaultPolicyPath());
const registry = createRegistry();

/**
 * The balance alerts on `storage`, checked every 5 minutes on `clock`, through an executor on the
 * same storage under the shipped policy (the alert tools add them, the check reads as
 * `system:alerts`); log lines into `lines` when given.
 */
function balanceAlerts(storage: Storage, clock: ManualClock, lines?: string[], under = policy) {
  const c = sandbox.credentials;
  const executor = new Executor({
    storage,
    registry,
    policy: under,
    audit: new AuditLog(storage),
    client,
    defaults: {
      companyCode: c.companyId,
      programCode: c.programCode,
      agentCode: c.agentCode,
      subagentCode: c.subagentCode,
    },
    alerts: new AlertBook(storage, clock, 300_000),
    cards: noCards.directories.cards,
  });
  const deps = {
    storage,
    execute: executor.execute.bind(executor),
    clock,
    ...(lines === undefined ? {} : { log: createLogger('info', (line) => lines.push(line)) }),
  };
  return {
    add: (actor: Actor, input: { currency: string; amount: number; channel: string }) =>
      executor.execute({ tool: 'create_balance_alert', input, actor }),
    check: (post: (post: AlertPost) => Promise<void>) => checkAlerts(deps, post),
  };
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
      posts.map((p) => [p.kind, p.alert.below, p.balance, p.dedupeKey.replace(/alr_\w+/, 'id')]),
    ).toEqual([['below', 130_000, { amount: 120_000, currency: 'EUR' }, 'balance-alert:id:1:below']]);
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

const shipped = readFileSync(defaultPolicyPath(), 'utf8');
const POLICIES = [
  {
    name: 'without the `system: alerts` entry',
    text: shipped.replace(/\n {2}- match: \{ system: alerts \}\n {4}roles: \[viewer\]\n/, '\n'),
    says: 'system:alerts is an unknown actor',
  },
  {
    name: 'asking for approval of get_balances',
    text: shipped.replace(
      /\nrules:\n/,
      '\nrules:\n  - name: balances-approved\n    tools: [get_balances]\n    allow: [viewer]\n    approval: { approvers: 1, role: approver }\n',
    ),
    says: "needs approval (rule 'balances-approved'), which system:alerts cannot wait for",
  },
];

describe.each(POLICIES)('the check under a policy $name', ({ name, text, says }) => {
  it('is refused, opens nothing, and each alert says once that its balance cannot be read, and why', async () => {
    expect(text).not.toBe(shipped);
    const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
    writeFileSync(file, text);
    const [{ storage }] = await (BACKENDS[0] as (typeof BACKENDS)[number]).twoReplicas();
    const alerts = balanceAlerts(
      storage,
      manualClock('2026-11-26T12:00:00Z'),
      undefined,
      PolicyStore.load(file),
    );
    await storage.transaction((tx) => tx.alerts.add(alert('alr_0000000a11', { thresholdMinor: 99_000_000 })));
    const posts: AlertPost[] = [];
    for (let i = 0; i < 2; i += 1)
      await alerts.check(async (post) => {
        posts.push(post);
      });
    expect(posts.map((p) => [p.kind, p.error])).toEqual([['read-failed', expect.stringContaining(says)]]);
    expect(await storage.read((s) => s.approvals.list({ limit: 10 }))).toEqual([]);
  });
});
