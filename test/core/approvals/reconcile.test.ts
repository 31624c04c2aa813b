import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRow } from '../../../src/core/store/rows/approvals.js';
import { creates, fault, PAYOUT, pending } from '../../helpers/approvals.js';
import { manualClock } from '../../helpers/clock.js';
import { createTestCore, type TestCore, type TestCoreOptions } from '../../helpers/core.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

/**
 * Settling an unresolved approval (`reconcile`): only the attempt the person looked up, the reason
 * of a Send again kept as a settlement's is, and an engine that is stopping letting an unknown
 * outcome go instead of re-sending it in the background.
 */

const PAYOUTS = '/svc/banking/api/v1/payouts';
let sandbox: RunningSandbox;
let core: TestCore | undefined;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterEach(async () => {
  await core?.close();
  core = undefined;
});
afterAll(async () => {
  await sandbox.close();
});

async function start(options: TestCoreOptions = {}): Promise<TestCore> {
  core = await createTestCore({ ...options, sandbox });
  return core;
}

const row = (c: TestCore, id: string) =>
  c.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow;

/** A payout approved while the service answers 503: unresolved after its one send, as request `…-1`. */
async function unresolved(c: TestCore): Promise<string> {
  const { id } = pending(await c.call('create_payout', PAYOUT));
  await fault(c, PAYOUTS, { status: 503 }, 1);
  expect(await c.executor.approve(id, c.approver)).toMatchObject({ approval: { state: 'unresolved' } });
  return id;
}

describe('reconciling an approval that moved on since it was looked up', () => {
  it('refuses to settle a newer attempt than the request id looked up, and says which it is now', async () => {
    const c = await start({ resendDelaysMs: [] });
    const id = await unresolved(c);
    // Sent again, sent back for a fresh quote, approved again and unresolved once more: attempt 2.
    // No shipped tool re-quotes on a Send again (it re-sends the checkpointed quote), so the row is
    // moved where such a run leaves it.
    c.db.prepare('UPDATE approvals SET attempt = 2, request_id = ? WHERE id = ?').run(`${id}-2`, id);

    const stale = await c.executor.reconcile(id, c.approver2, {
      outcome: 'failed',
      reason: 'no payout under this request id',
      requestId: `${id}-1`,
    });
    expect(stale).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining(
        `changed since you looked up ${id}-1: it is now attempt 2, request ${id}-2`,
      ),
    });
    expect(row(c, id)).toMatchObject({ state: 'unresolved', decided_by: null });
    const retried = await c.executor.reconcile(id, c.approver2, { outcome: 'retry', requestId: `${id}-1` });
    expect(retried).toMatchObject({ status: 'refused', reason: expect.stringContaining('look it up again') });
    expect(row(c, id).state).toBe('unresolved');
    expect(
      (await c.audit.list({ approvalId: id, limit: 100 })).filter((e) => e.decision === 'reconciled'),
    ).toEqual([]);

    // The request id looked up now is settled.
    const settled = await c.executor.reconcile(id, c.approver2, {
      outcome: 'failed',
      reason: `no payout under ${id}-2`,
      requestId: `${id}-2`,
    });
    expect(settled).toMatchObject({
      status: 'ok',
      approval: { state: 'failed', decidedBy: 'cli:approver2' },
    });
  });
});

describe('Send again', () => {
  it('keeps who asked for it and why, in the audit log and the approval history', async () => {
    const c = await start({ resendDelaysMs: [] });
    const id = await unresolved(c);
    const reason = 'the service answers again; nothing found under this request id';
    const retried = await c.executor.reconcile(id, c.approver2, { outcome: 'retry', reason });
    expect(retried).toMatchObject({ status: 'ok', approval: { state: 'succeeded', requestId: `${id}-1` } });

    const entries = (await c.audit.list({ approvalId: id, limit: 100 })).filter(
      (e) => e.decision === 'reconciled',
    );
    expect(entries.map((e) => e.actor)).toEqual(['cli:approver2']);
    expect(entries[0]?.error).toContain(reason);
    expect(entries[0]?.error).toContain(`sent again with the same request id ${id}-1 by cli:approver2`);
    const events = (await c.approvals.feed.after(0, 1000)).filter(
      (e) => e.approvalId === id && e.kind === 'executing' && e.detail !== undefined,
    );
    expect(events.map((e) => e.detail)).toEqual([expect.stringContaining(reason)]);
  });
});

describe('an engine that is stopping', () => {
  it('lets an unknown outcome go instead of re-sending it in the background, and recovery finishes it', async () => {
    const clock = manualClock();
    const c = await start({ clock, background: true, resendWindowMs: 600_000 });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    const before = creates(c);
    await fault(c, PAYOUTS, { status: 503 }, 1);

    // Shutdown has begun (no re-send to stop yet) when the vote that completes the quorum arrives.
    await c.approvals.stopBackground();
    const progress: string[] = [];
    const voted = await c.approvals.approve(id, c.approver, (message) => progress.push(message));
    expect(voted).toMatchObject({ status: 'ok', approval: { state: 'executing' } });
    // Let go, inside the same re-send window: nobody in this process holds or re-sends it.
    const held = row(c, id);
    expect(held).toMatchObject({ state: 'executing', owner: null, lease_until: null });
    expect(held.error_json).toContain('retryingUntil');
    expect(progress.join('\n')).toContain('this process is stopping');
    expect(creates(c)).toBe(before + 1);

    // Another replica's recovery, or the next start, sends it again with the same request id.
    expect(await c.executor.recover()).toBe(1);
    expect(row(c, id)).toMatchObject({ state: 'succeeded', request_id: `${id}-1` });
    expect(creates(c)).toBe(before + 2);
  });
});
