import { afterEach, describe, expect, it } from 'vitest';
import { cliActor, mcpActor } from '../../../src/core/actors.js';
import type { ApprovalListener } from '../../../src/core/approvals/index.js';
import { available, creates, PAYOUT, PAYOUT_DEBIT, pending } from '../../helpers/approvals.js';
import { manualClock } from '../../helpers/clock.js';
import { createTestCore, type TestCore, type TestCoreOptions } from '../../helpers/core.js';

let core: TestCore | undefined;
async function start(options: TestCoreOptions = {}): Promise<TestCore> {
  core = await createTestCore(options);
  return core;
}
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** Audit entries of one approval, oldest first, as `event/decision`. */
const trail = async (c: TestCore, approvalId: string) =>
  (await c.audit.list({ approvalId, limit: 100 })).map((e) => `${e.event}/${e.decision}`);

describe('ApprovalEngine: deciding', () => {
  it('audits every step of an approval that executes, with one request id per attempt', async () => {
    const c = await start();
    const approval = pending(await c.call('create_payout', PAYOUT));
    expect(approval.requestId).toBe(`${approval.id}-1`);
    expect(approval.id).toMatch(/^apr_[0-9a-f]{24}$/);
    await c.executor.approve(approval.id, c.approver);
    expect(await trail(c, approval.id)).toEqual([
      'requested/approval_required',
      'decided/approved',
      'executing/approved',
      'executed/approved',
    ]);
    const entries = await c.audit.list({ approvalId: approval.id, limit: 10 });
    expect(entries.map((e) => e.actor)).toEqual([
      'cli:operator',
      'cli:approver',
      'cli:operator',
      'cli:operator',
    ]);
    for (const entry of entries) expect(entry.requestIds).toEqual([`${approval.id}-1`]);
    expect(await c.audit.verify()).toMatchObject({ ok: true });
  });

  it('rejects with a reason, from an approver other than the requester', async () => {
    const c = await start();
    const { id } = pending(await c.call('create_payout', PAYOUT));
    expect(await c.executor.reject(id, c.approver, '  ')).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('reason'),
    });
    expect(await c.executor.reject(id, c.operator, 'changed my mind')).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('cancel'),
    });
    const rejected = await c.executor.reject(id, c.approver, 'wrong beneficiary');
    expect(rejected).toMatchObject({
      status: 'ok',
      approval: { state: 'rejected', decidedBy: 'cli:approver', decisionReason: 'wrong beneficiary' },
    });
    expect(await c.executor.approve(id, c.approver2)).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('rejected'),
    });
    expect(creates(c)).toBe(0);
    // The requester's attempt to reject and the late vote are refused, and audited as such.
    expect(await trail(c, id)).toEqual([
      'requested/approval_required',
      'decided/refused',
      'decided/rejected',
      'decided/refused',
    ]);
    const entries = await c.audit.list({ approvalId: id, limit: 10 });
    expect(entries.find((e) => e.decision === 'rejected')?.error).toContain('wrong beneficiary');
  });

  it('lets only the requester cancel, and only while pending', async () => {
    const c = await start();
    const { id } = pending(await c.call('create_payout', PAYOUT));
    expect(await c.executor.cancel(id, c.approver)).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('only the requester'),
    });
    expect(await c.executor.cancel(id, c.operator, 'duplicate')).toMatchObject({
      status: 'ok',
      approval: { state: 'cancelled', decidedBy: 'cli:operator', decisionReason: 'duplicate' },
    });
    expect(await c.executor.cancel(id, c.operator)).toMatchObject({ status: 'refused' });
    expect(await c.executor.approve(id, c.approver)).toMatchObject({ status: 'refused' });
    expect(creates(c)).toBe(0);
    expect(await trail(c, id)).toEqual([
      'requested/approval_required',
      'decided/refused',
      'decided/cancelled',
      'decided/refused',
      'decided/refused',
    ]);
  });

  it('refuses an approver without the role the rule asks for', async () => {
    const c = await start({
      policyYaml: `
roles: [viewer, operator, approver]
actors:
  - match: { cli: alice }
    roles: [operator]
  - match: { cli: bob }
    roles: [viewer]
  - match: { cli: carol }
    roles: [approver]
rules:
  - tools: [create_payout]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [viewer, operator, approver]
`,
    });
    const alice = cliActor('alice');
    const { id } = pending(await c.call('create_payout', PAYOUT, alice));
    expect(await c.executor.approve(id, cliActor('bob'))).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('role approver'),
    });
    expect(await c.executor.approve(id, mcpActor('unknown'))).toMatchObject({ status: 'refused' });
    expect(await c.executor.reject(id, cliActor('bob'), 'no')).toMatchObject({ status: 'refused' });
    expect((await c.approvals.get(id))?.approvals).toEqual([]);
    // Refused attempts are audited too: who tried, and why it was not allowed.
    const refusals = (await c.audit.list({ approvalId: id, limit: 20 })).filter(
      (e) => e.decision === 'refused',
    );
    expect(refusals.map((e) => e.actor)).toEqual(['cli:bob', 'mcp:unknown', 'cli:bob']);
    expect(refusals[0]).toMatchObject({
      event: 'decided',
      outcome: 'failed',
      error: expect.stringContaining('role approver'),
    });
    expect(await c.executor.approve(id, cliActor('carol'))).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
  });

  it('tells listeners about every change, after it is committed', async () => {
    const c = await start();
    const seen: string[] = [];
    const listener: ApprovalListener = ({ kind, state, approvalId }) => {
      // Committed: the state a listener hears about is the one a reader finds.
      const stored = (
        c.db.prepare('SELECT state FROM approvals WHERE id = ?').get(approvalId) as
          | { state: string }
          | undefined
      )?.state;
      seen.push(stored === state ? `${kind}:${state}` : `${kind}:${state} but ${stored}`);
    };
    const stop = c.executor.onApprovalEvent(listener);
    // A front end that throws is expected here: the decision stands and the others still hear.
    const broken: string[] = [];
    c.executor.onApprovalEvent(({ kind }) => {
      broken.push(kind);
      throw new Error('a broken front end');
    });
    const big = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 50_000 };
    const { id } = pending(await c.call('create_payout', big));
    await c.executor.approve(id, c.approver);
    await c.executor.approve(id, c.approver2);
    expect(seen).toEqual([
      'opened:pending',
      'voted:pending',
      'voted:executing',
      'executing:executing',
      'succeeded:succeeded',
    ]);
    expect(broken).toHaveLength(5);
    stop();
    await c.executor.cancel(pending(await c.call('create_payout', PAYOUT)).id, c.operator);
    expect(seen).toHaveLength(5);
  });
});

describe('ApprovalEngine: repeats, expiry and listing', () => {
  it('returns the open approval for an identical request instead of opening another', async () => {
    const c = await start();
    const first = pending(await c.call('create_payout', PAYOUT));
    const again = pending(await c.call('create_payout', { ...PAYOUT }));
    expect(again.id).toBe(first.id);
    // The repeat did not even ask for a second quote.
    expect(creates(c, 'payouts.quote')).toBe(1);
    // Another person asking the same is another request.
    const other = pending(await c.call('create_payout', PAYOUT, c.approver2));
    expect(other.id).not.toBe(first.id);
    // Once closed, the same request opens a new approval.
    await c.executor.cancel(first.id, c.operator);
    expect(pending(await c.call('create_payout', PAYOUT)).id).not.toBe(first.id);
  });

  it('binds an idempotency key to one input and replays the result after success', async () => {
    const c = await start();
    const keyed = (input: object) =>
      c.executor.execute({ tool: 'create_payout', input, actor: c.operator, idempotencyKey: 'invoice-42' });
    const { id } = pending(await keyed(PAYOUT));
    expect(await keyed({ ...PAYOUT, amount: 999 })).toMatchObject({
      status: 'invalid',
      message: expect.stringContaining('invoice-42'),
    });
    await c.executor.approve(id, c.approver);
    const replay = await keyed(PAYOUT);
    expect(replay).toMatchObject({ status: 'ok', requestId: `${id}-1`, output: { status: 'PENDING' } });
    expect(creates(c)).toBe(1);
    // The repeat is on record: asked again, answered by the approval's run, nothing ran again.
    const [last] = await c.audit.list({ tool: 'create_payout', order: 'desc', limit: 1 });
    expect(last).toMatchObject({
      event: 'requested',
      decision: 'approval_required',
      approvalId: id,
      requestIds: [`${id}-1`],
      outcome: 'ok',
    });
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
  });

  it('expires a pending approval after its TTL, and then refuses votes', async () => {
    const clock = manualClock('2030-01-01T00:00:00Z');
    const c = await start({ clock, ttlSeconds: 600 });
    const { id, expiresAt } = pending(await c.call('create_payout', PAYOUT));
    expect(expiresAt).toBe('2030-01-01T00:10:00.000Z');
    clock.set('2030-01-01T00:09:59Z');
    expect((await c.executor.listApprovals({ state: 'pending' })).map((a) => a.id)).toEqual([id]);
    clock.set('2030-01-01T00:10:00Z');
    expect(await c.executor.listApprovals({ state: 'pending' })).toEqual([]);
    expect(await c.executor.getApproval(id)).toMatchObject({
      state: 'expired',
      decidedBy: 'system:approvals',
    });
    expect(await c.executor.approve(id, c.approver)).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('expired'),
    });
    expect(creates(c)).toBe(0);
    expect(await trail(c, id)).toEqual(['requested/approval_required', 'decided/expired', 'decided/refused']);
  });

  it('expires on the vote itself when nobody listed in between', async () => {
    const clock = manualClock('2030-01-01T00:00:00Z');
    const c = await start({ clock, ttlSeconds: 60 });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    clock.set('2030-01-01T00:01:01Z');
    expect(await c.executor.approve(id, c.approver)).toMatchObject({
      status: 'refused',
      approval: { state: 'expired' },
    });
    expect((await c.approvals.get(id))?.approvals).toEqual([]);
  });

  it('lists by state, requester and tool, newest first, within a limit', async () => {
    const clock = manualClock('2030-01-01T00:00:00Z');
    const tick = () => clock.advance(1000);
    const c = await start({ clock });
    const a = pending(await c.call('create_payout', PAYOUT));
    tick();
    const b = pending(await c.call('create_payout', PAYOUT, c.approver));
    tick();
    const conversion = { sourceAssetCode: 'USD', targetAssetCode: 'EUR', amount: 10, side: 'SOURCE' };
    const d = pending(await c.call('create_conversion', conversion));
    tick();
    await c.executor.cancel(b.id, c.approver);

    const ids = async (filter: Parameters<TestCore['executor']['listApprovals']>[0]) =>
      (await c.executor.listApprovals(filter)).map((x) => x.id);
    expect(await ids({})).toEqual([d.id, b.id, a.id]);
    expect(await ids({ state: 'pending' })).toEqual([d.id, a.id]);
    expect(await ids({ state: 'cancelled' })).toEqual([b.id]);
    expect(await ids({ requester: 'cli:operator' })).toEqual([d.id, a.id]);
    expect(await ids({ tool: 'create_conversion' })).toEqual([d.id]);
    expect(await ids({ tool: 'create_payout', state: 'pending', requester: 'cli:operator' })).toEqual([a.id]);
    expect(await ids({ limit: 1 })).toEqual([d.id]);
    expect(await c.executor.getApproval('apr_nope')).toBeUndefined();
    expect(await c.executor.approve('apr_nope', c.approver)).toMatchObject({ status: 'not_found' });
  });
});
