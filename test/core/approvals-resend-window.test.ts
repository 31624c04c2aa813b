import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/app/runtime.js';
import { resendPauseMs } from '../../src/core/approvals/retrying.js';
import type { ApprovalRow } from '../../src/core/approvals/store.js';
import { available, creates, fault, PAYOUT, PAYOUT_DEBIT, pending, until } from '../helpers/approvals.js';
import { manualClock } from '../helpers/clock.js';
import { createTestCore, runtimeOptions, type TestCore, testConfig } from '../helpers/core.js';

/**
 * The re-send window across replicas: the replica that executes an approval holds its lease while
 * it re-sends in the background; stopped, it lets the approval go, and another replica on the same
 * database takes it over in the same window (not a new one), and the service pays once.
 */

const PAYOUTS = '/svc/banking/api/v1/payouts';
const clock = manualClock();
let a: TestCore;
let b: Runtime;

beforeAll(async () => {
  a = await createTestCore({ clock, background: true, owner: 'host-a:1' });
  b = await createRuntime(
    testConfig(a.sandbox, { dbPath: a.dbPath }),
    runtimeOptions({ clock, background: true, owner: 'host-b:2' }),
  );
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const row = (id: string) => a.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow;
const refused = async (): Promise<number> => {
  const answer = await fetch(`${a.sandbox.url}/_sandbox/faults`);
  const body = (await answer.json()) as { faults: { remaining: number | null }[] };
  return body.faults.reduce((n, f) => n + (1000 - (f.remaining ?? 0)), 0);
};

describe('an approval re-sent in the background', () => {
  it('is held by one replica, let go when it stops, and finished by another in the same window, paid once', async () => {
    const { id } = pending(await a.call('create_payout', PAYOUT));
    await fault(a, PAYOUTS, { status: 503 }, 1000);
    const start = clock.now().getTime();

    // The vote returns while the outcome is unknown: executing, retrying, held by replica A.
    const voted = await a.executor.approve(id, a.approver);
    expect(voted).toMatchObject({
      status: 'ok',
      approval: { state: 'executing', retryingUntil: new Date(start + 600_000).toISOString() },
    });
    expect(row(id)).toMatchObject({ owner: 'host-a:1', sends: 1 });
    expect(await b.executor.recover()).toBe(0);

    // Two re-sends at their times; A renews its lease as the clock passes.
    clock.set(new Date(start + resendPauseMs(0, [1000, 4000])));
    await until(async () => (await refused()) === 2, 'the first re-send');
    clock.set(new Date(start + 5_000));
    await until(async () => (await refused()) === 3, 'the second re-send');
    await until(() => row(id).sends === 3, 'the send counted');
    expect(Date.parse(row(id).lease_until ?? '')).toBeGreaterThan(clock.now().getTime());
    expect(await b.executor.recover()).toBe(0);

    // A stops (shutdown): it lets the approval go at once, in its window.
    await a.runtime.approvals.stopBackground();
    expect(row(id)).toMatchObject({ state: 'executing', owner: null, lease_until: null });

    // B takes it over: its first send is refused too, and the window stays the one A opened.
    expect(await b.executor.recover()).toBe(1);
    expect(await refused()).toBe(4);
    expect(row(id).owner).toBe('host-b:2');
    expect((await b.executor.getApproval(id))?.retryingUntil).toBe(new Date(start + 600_000).toISOString());
    const kinds = (await b.approvals.feed.after(0, 1000))
      .filter((e) => e.approvalId === id)
      .map((e) => e.kind);
    expect(kinds.filter((k) => k === 'retrying')).toHaveLength(1);

    // The service answers again: B's next re-send goes through, with the same request id.
    await fetch(`${a.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    clock.set(new Date(start + 5_000 + resendPauseMs(0, [1000, 4000])));
    await until(async () => (await b.executor.getApproval(id))?.state === 'succeeded', 'succeeded');
    expect(row(id).request_id).toBe(`${id}-1`);
    expect(creates(a) - 4).toBe(1);
    expect(await available(a)).toBe(250_000 - PAYOUT_DEBIT);
  });
});
