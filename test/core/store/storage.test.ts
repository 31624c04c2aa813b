import { describe, expect, it } from 'vitest';
import type { Approval } from '../../../src/core/approvals/approval.js';
import { AuditLog } from '../../../src/core/audit/index.js';
import type { Storage } from '../../../src/core/store/index.js';
import { approvalRow } from '../../helpers/approval-rows.js';
import { sampleEntry } from '../../helpers/audit.js';
import { contractBackends } from '../../helpers/backends.js';

const BACKENDS = await contractBackends('storage');

const T0 = '2026-01-01T00:00:00.000Z';
const at = (seconds: number): string => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/** A pending payout approval opened at T0, expiring an hour later. */
const row = (id: string, changes: Partial<Approval> = {}): Approval =>
  approvalRow(0, T0, {
    id,
    fingerprint: `fp-${id}`,
    requestId: `${id}-1`,
    expiresAt: at(3600),
    ...changes,
  });

/** The core's stores and their transactions, through their interfaces, on every backend. */
describe.each(BACKENDS)('$name', (backend) => {
  const twoReplicas = async (): Promise<[Storage, Storage]> => {
    const [a, b] = await backend.twoReplicas();
    return [a.storage, b.storage];
  };
  it('lets no other write of the process into a transaction that awaits, and commits it whole', async () => {
    const [storage] = await twoReplicas();
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const first = storage.transaction(async (tx) => {
      await tx.approvals.insert(row('apr_a'));
      order.push('first inserted');
      entered();
      await gate;
      await tx.approvals.close('apr_a', {
        state: 'cancelled',
        decidedBy: 'cli:operator',
        reason: 'no',
        at: T0,
      });
      order.push('first done');
    });
    const second = storage.transaction(async (tx) => {
      order.push('second started');
      return (await tx.approvals.byId('apr_a'))?.state;
    });
    const reader = storage.read(async (stores) => (await stores.approvals.byId('apr_a'))?.state);
    // The first is waiting on its gate; the others wait for it, whatever they await themselves.
    await inside;
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first inserted']);
    open();
    await first;
    expect(await second).toBe('cancelled');
    expect(await reader).toBe('cancelled');
    expect(order).toEqual(['first inserted', 'first done', 'second started']);
  });

  it('joins a transaction called inside another, and rolls both back together', async () => {
    const [storage] = await twoReplicas();
    const told: string[] = [];
    await expect(
      storage.transaction(async (tx) => {
        await tx.approvals.insert(row('apr_b'));
        tx.afterCommit(() => told.push('outer'));
        await storage.transaction(async (inner) => {
          await inner.feed.append({
            approvalId: 'apr_b',
            kind: 'opened',
            at: T0,
            state: 'pending',
            attempt: 1,
          });
          inner.afterCommit(() => told.push('inner'));
        });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await storage.read(async (s) => s.approvals.byId('apr_b'))).toBeUndefined();
    expect(await storage.read(async (s) => s.feed.head())).toBe(0);
    expect(told).toEqual([]);
    await storage.transaction(async (tx) => {
      await tx.approvals.insert(row('apr_b'));
      tx.afterCommit(() => told.push('committed'));
      expect(told).toEqual([]);
    });
    expect(told).toEqual(['committed']);
  });

  it('gives an executing approval to one replica, and to another only once its lease has run out', async () => {
    const [a, b] = await twoReplicas();
    await a.transaction(async (tx) => tx.approvals.insert(row('apr_c', { state: 'approved' })));
    const claim = (storage: Storage, owner: string, now: number) =>
      storage.transaction((tx) => tx.approvals.claimExecution('apr_c', owner, at(now + 30), at(now)));
    const [one, two] = await Promise.all([claim(a, 'host-a:1', 0), claim(b, 'host-b:2', 0)]);
    expect([one, two].filter(Boolean)).toHaveLength(1);
    const holder = one ? 'host-a:1' : 'host-b:2';
    const other = one ? b : a;
    // The holder renews; nobody else can.
    expect(await other.transaction((tx) => tx.approvals.renewLease('apr_c', 'host-x:9', at(100)))).toBe(
      false,
    );
    expect(await a.transaction((tx) => tx.approvals.renewLease('apr_c', holder, at(40)))).toBe(true);
    expect(await claim(other, 'host-z:3', 35)).toBe(false);
    expect(await claim(other, 'host-z:3', 40)).toBe(true);
    expect(await a.read((s) => s.approvals.byId('apr_c'))).toMatchObject({
      state: 'executing',
      owner: 'host-z:3',
      leaseUntil: at(70),
    });
  });

  it('gives back an approval as it was stored, its input in the order given, and moves it only by its transitions', async () => {
    const [a, b] = await twoReplicas();
    const stored = row('apr_t', {
      input: { sourceAccountId: 'acc_1', beneficiaryId: 'ben_1', amount: 10, currency: 'EUR' },
      route: { slackChannel: 'C1' },
      stepUp: 'passkey',
    });
    await a.transaction((tx) => tx.approvals.insert(stored));
    const read = await b.read((s) => s.approvals.byId('apr_t'));
    expect(read).toEqual(stored);
    expect(Object.keys(read?.input ?? {})).toEqual([
      'sourceAccountId',
      'beneficiaryId',
      'amount',
      'currency',
    ]);
    const approver = { id: 'cli:approver', frontEnd: 'cli' as const };
    const vote = {
      person: 'approver',
      approverId: approver.id,
      approver,
      attempt: 1,
      votedAt: at(1),
      evidence: null,
    };
    // Each transition applies only to the state it leaves, and says whether it did.
    expect(await a.transaction((tx) => tx.approvals.recordVote('apr_t', vote))).toBe(true);
    expect(await b.transaction((tx) => tx.approvals.startExecution('apr_t', 'host-b:2', at(40), at(2)))).toBe(
      true,
    );
    expect(await a.transaction((tx) => tx.approvals.startExecution('apr_t', 'host-a:1', at(40), at(2)))).toBe(
      false,
    );
    expect(await a.transaction((tx) => tx.approvals.countSend('apr_t', 'host-a:1', at(50)))).toBe(false);
    expect(
      await b.transaction((tx) => tx.approvals.saveCheckpoints('apr_t', 'host-b:2', { quote: { id: 'q1' } })),
    ).toBe(true);
    expect(await b.transaction((tx) => tx.approvals.countSend('apr_t', 'host-b:2', at(50)))).toBe(true);
    const finished = {
      state: 'succeeded' as const,
      result: { payoutId: 'po_1' },
      settlement: null,
      at: at(3),
    };
    expect(await a.transaction((tx) => tx.approvals.finish('apr_t', 'host-a:1', finished))).toBe(false);
    expect(await b.transaction((tx) => tx.approvals.finish('apr_t', 'host-b:2', finished))).toBe(true);
    expect(await a.read((s) => s.approvals.votes('apr_t', 1))).toEqual([
      { approverId: approver.id, person: 'approver', votedAt: at(1), approver, evidence: null },
    ]);
    expect(await a.read((s) => s.approvals.byId('apr_t'))).toEqual({
      ...stored,
      state: 'succeeded',
      checkpoints: { quote: { id: 'q1' } },
      result: { payoutId: 'po_1' },
      sends: 1,
      updatedAt: at(3),
    });
  });

  it('gives each slot of scheduled work to one replica, whatever the number of callers', async () => {
    const [a, b] = await twoReplicas();
    const claim = (storage: Storage, owner: string) =>
      storage.transaction((tx) => tx.claims.claim('reminder:apr_s:1', owner, new Date(0)));
    const results = await Promise.all([
      claim(a, 'host-a:1'),
      claim(b, 'host-b:2'),
      claim(a, 'host-a:1'),
      claim(b, 'host-b:2'),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await b.read((s) => s.claims.claimed('reminder:apr_s:1'))).toBe(true);
    expect(await b.read((s) => s.claims.claimed('reminder:apr_s:2'))).toBe(false);
  });

  it('forgets the claims made before a time, and only those', async () => {
    const [a, b] = await twoReplicas();
    await a.transaction(async (tx) => {
      await tx.claims.claim('balance-alerts:1', 'host-a:1', new Date(at(0)));
      await tx.claims.claim('balance-alerts:2', 'host-a:1', new Date(at(600)));
    });
    expect(await b.transaction((tx) => tx.claims.prune(new Date(at(300))))).toBe(1);
    expect(await a.transaction((tx) => tx.claims.prune(new Date(at(300))))).toBe(0);
    expect(await a.read((s) => s.claims.claimed('balance-alerts:1'))).toBe(false);
    expect(await a.read((s) => s.claims.claimed('balance-alerts:2'))).toBe(true);
  });

  it('hands feed events out in order and keeps each consumer where it got to, never moving it back', async () => {
    const [a, b] = await twoReplicas();
    await a.transaction(async (tx) => tx.approvals.insert(row('apr_d')));
    for (const [i, storage] of [a, b, a].entries()) {
      await storage.transaction((tx) =>
        tx.feed.append({ approvalId: 'apr_d', kind: 'voted', at: at(i), state: 'pending', attempt: 1 }),
      );
    }
    const events = await b.read((s) => s.feed.after(0, 10));
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await b.read((s) => s.feed.after(1, 1))).map((e) => e.seq)).toEqual([2]);
    expect(await a.read((s) => s.feed.cursor('slack'))).toBeUndefined();
    await a.transaction((tx) => tx.feed.advance('slack', 2, T0));
    await b.transaction((tx) => tx.feed.advance('slack', 1, T0));
    expect(await b.read((s) => s.feed.cursor('slack'))).toBe(2);
    expect(await b.read((s) => s.feed.head())).toBe(3);
    // One approval's history: its events only, oldest first.
    await a.transaction(async (tx) => {
      await tx.approvals.insert(row('apr_d2'));
      await tx.feed.append({ approvalId: 'apr_d2', kind: 'opened', at: at(4), state: 'pending', attempt: 1 });
      await tx.feed.append({
        approvalId: 'apr_d',
        kind: 'taken_over',
        at: at(5),
        state: 'executing',
        attempt: 1,
        detail: 'replica b',
      });
    });
    const history = await b.read((s) => s.feed.ofApproval('apr_d'));
    expect(history.map((e) => [e.seq, e.kind])).toEqual([
      [1, 'voted'],
      [2, 'voted'],
      [3, 'voted'],
      [5, 'taken_over'],
    ]);
    expect(history[3]).toMatchObject({ approvalId: 'apr_d', detail: 'replica b', state: 'executing' });
  });

  it('counts approvals by state with the oldest pending, and lists every consumer where it stands', async () => {
    const [a, b] = await twoReplicas();
    await a.transaction(async (tx) => {
      await tx.approvals.insert(row('apr_e1', { createdAt: at(5) }));
      await tx.approvals.insert(row('apr_e2', { createdAt: at(2) }));
      await tx.approvals.insert(row('apr_e3', { state: 'rejected', createdAt: at(1) }));
    });
    expect(await b.read((s) => s.approvals.census())).toEqual({
      byState: [
        { state: 'pending', count: 2 },
        { state: 'rejected', count: 1 },
      ],
      oldestPendingAt: at(2),
    });
    await a.transaction(async (tx) => {
      await tx.feed.append({ approvalId: 'apr_e1', kind: 'voted', at: at(6), state: 'pending', attempt: 1 });
      await tx.feed.advance('slack', 1, T0);
      await tx.feed.advance('audit-anchor', 1, T0);
    });
    expect(await b.read((s) => s.feed.cursors())).toEqual([
      { consumer: 'audit-anchor', seq: 1 },
      { consumer: 'slack', seq: 1 },
    ]);
  });

  it('pages approvals newest first from the last one seen, none lost when one is decided between two pages', async () => {
    const [a, b] = await twoReplicas();
    // Recorded in the order of their ids, two pairs at the same time: both backends agree on ties.
    const times = [0, 1, 1, 2, 3, 3, 4];
    await a.transaction(async (tx) => {
      for (const [n, seconds] of times.entries())
        await tx.approvals.insert(row(`apr_k${n}`, { createdAt: at(seconds) }));
    });
    const page = (after?: Approval) =>
      b.read((s) =>
        s.approvals.list({
          state: 'pending',
          limit: 2,
          ...(after === undefined ? {} : { after: { id: after.id, createdAt: after.createdAt } }),
        }),
      );
    const ids = (rows: Approval[]) => rows.map((r) => r.id);
    const first = await page();
    expect(ids(first)).toEqual(['apr_k6', 'apr_k5']);
    // The newest is decided before the next page is read: skipping by count would now pass over one.
    await a.transaction((tx) =>
      tx.approvals.close('apr_k6', { state: 'rejected', decidedBy: 'cli:approver', reason: 'no', at: at(5) }),
    );
    const second = await page(first.at(-1));
    expect(ids(second)).toEqual(['apr_k4', 'apr_k3']);
    const third = await page(second.at(-1));
    expect(ids(third)).toEqual(['apr_k2', 'apr_k1']);
    expect(ids(await page(third.at(-1)))).toEqual(['apr_k0']);
  });

  it('keeps one audit chain for appenders on two replicas, relaxed and durable alike', async () => {
    const [a, b] = await twoReplicas();
    const [one, two] = [new AuditLog(a), new AuditLog(b)];
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => one.append(sampleEntry(i))),
      ...Array.from({ length: 20 }, (_, i) => two.record(sampleEntry(i), { durable: i % 2 === 0 })),
    ]);
    await two.flush();
    expect(await one.verify()).toMatchObject({ ok: true, entries: 40, headSeq: 40 });
    expect((await two.list({ limit: 100 })).map((e) => e.seq)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});
