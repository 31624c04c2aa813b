import { describe, expect, it } from 'vitest';
import type { BreakGlassReview } from '../../../src/core/approvals/break-glass-store.js';
import { approvalRow } from '../../helpers/approval-rows.js';
import { contractBackends } from '../../helpers/backends.js';

const BACKENDS = await contractBackends('break-glass');

const T0 = '2026-01-01T00:00:00.000Z';

const review = (approvalId: string, at: string): BreakGlassReview => ({
  approvalId,
  person: 'ada',
  actorId: 'cli:ada',
  reason: 'approvers unreachable',
  at,
  needed: 2,
  role: 'admin',
  closers: [],
});

/** The break-glass reviews through their interface, on every backend: kept, closed by two, shared. */
describe.each(BACKENDS)('$name', (backend) => {
  it('keeps a review open, oldest first, until its last closer; another replica sees the same', async () => {
    const [a, b] = await backend.twoReplicas();
    await a.storage.transaction(async (tx) => {
      await tx.approvals.insert(
        approvalRow(0, T0, { id: 'apr_bg1', fingerprint: 'fp-1', requestId: 'apr_bg1-1' }),
      );
      await tx.breakGlass.insert(review('apr_bg1', '2026-01-01T00:00:02.000Z'));
      await tx.breakGlass.insert(review('apr_bg0', '2026-01-01T00:00:01.000Z'));
    });
    const open = await b.storage.read((s) => s.breakGlass.open());
    expect(open.map((r) => r.approvalId)).toEqual(['apr_bg0', 'apr_bg1']);

    const first = { person: 'bob', actorId: 'cli:bob', reason: 'checked', at: '2026-01-01T01:00:00.000Z' };
    const one = { ...review('apr_bg1', '2026-01-01T00:00:02.000Z'), closers: [first] };
    expect(await b.storage.transaction((tx) => tx.breakGlass.update(one))).toBe(true);
    expect(await a.storage.read((s) => s.breakGlass.byApproval('apr_bg1'))).toEqual(one);

    const second = { person: 'cy', actorId: 'cli:cy', reason: 'fine', at: '2026-01-01T02:00:00.000Z' };
    const closed = { ...one, closers: [first, second], closedAt: second.at };
    expect(await a.storage.transaction((tx) => tx.breakGlass.update(closed))).toBe(true);
    expect(await b.storage.read((s) => s.breakGlass.byApproval('apr_bg1'))).toEqual(closed);
    expect((await a.storage.read((s) => s.breakGlass.open())).map((r) => r.approvalId)).toEqual(['apr_bg0']);
    expect(await a.storage.transaction((tx) => tx.breakGlass.update(review('apr_none', T0)))).toBe(false);
  });
});
