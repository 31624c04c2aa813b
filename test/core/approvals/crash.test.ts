import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ServeMetrics } from '../../../src/app/metrics/metrics.js';
import type { ApprovalView } from '../../../src/core/approvals/types.js';
import { createLogger } from '../../../src/core/log.js';
import type { ApprovalRow } from '../../../src/core/store/rows/approvals.js';
import { statusLine } from '../../../src/present/approval-words.js';
import {
  available,
  type Child,
  creates,
  fault,
  PAYOUT,
  PAYOUT_DEBIT,
  pending,
  slowDown,
  startChild,
  until,
} from '../../helpers/approvals.js';
import { manualClock } from '../../helpers/clock.js';
import { createTestCore, type TestCore, type TestCoreOptions } from '../../helpers/core.js';

const PAYOUTS = '/svc/banking/api/v1/payouts';

let core: TestCore | undefined;
async function start(options: TestCoreOptions = {}): Promise<TestCore> {
  core = await createTestCore(options);
  return core;
}
let child: Child | undefined;
afterEach(async () => {
  await child?.kill();
  child = undefined;
  await core?.close();
  core = undefined;
});

const row = (c: TestCore, id: string) =>
  c.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow;

describe('an approval whose process dies while executing', () => {
  it('is finished on restart with the same request id, and the service pays once', async () => {
    const clock = manualClock();
    const c = await start({ clock });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    // The payout request reaches the sandbox, which answers only after 2 s: the kill lands in between.
    await slowDown(c, PAYOUTS, 2000);
    child = await startChild(c);
    child.send({ cmd: 'approve', id, as: 'approver' });
    await until(() => creates(c) === 1, 'the payout request to reach the sandbox');

    // Durable before the call: executing, held by the child, with the quote it is sending.
    const held = row(c, id);
    expect(held).toMatchObject({ state: 'executing', owner: `${hostname()}:${child.pid}` });
    const quoteId = (JSON.parse(held.checkpoints_json as string) as { quote: { quoteId: string } }).quote
      .quoteId;
    // While the child lives, nobody takes its approval over.
    expect(await c.executor.recover()).toBe(0);

    await child.kill();
    // The first request still completes at the service: the money has left.
    await until(async () => (await available(c)) === 250_000 - PAYOUT_DEBIT, 'the first payout to land');
    expect(row(c, id).state).toBe('executing');

    // Nobody renews the dead holder's lease (30 s): once it has run out, recovery takes over.
    expect(await c.executor.recover()).toBe(0);
    clock.set(new Date(Date.now() + 31_000));
    expect(await c.executor.recover()).toBe(1);
    const done = await c.approvals.get(id);
    expect(done).toMatchObject({ state: 'succeeded', requestId: `${id}-1`, result: { quote: { quoteId } } });
    // Sent twice with the same x-request-id and quote; the service replayed the first answer.
    expect(creates(c)).toBe(2);
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
    const payoutId = (done?.result as { payoutId: string } | undefined)?.payoutId ?? '';
    expect(await c.ok('get_payout', { payoutId })).toMatchObject({ payoutId });

    const executing = (await c.audit.list({ approvalId: id, limit: 100 })).filter(
      (e) => e.event === 'executing',
    );
    expect(executing.map((e) => e.requestIds)).toEqual([[`${id}-1`], [`${id}-1`]]);
    expect(await c.audit.verify()).toMatchObject({ ok: true });
    expect(await c.executor.recover()).toBe(0);
  });

  it('takes a fresh quote when the process died before anything was sent', async () => {
    const clock = manualClock();
    const c = await start({ clock });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    // The execution's quote is the slow request: the kill lands before any payout was sent.
    await slowDown(c, `${PAYOUTS}/quote`, 2000);
    child = await startChild(c);
    child.send({ cmd: 'approve', id, as: 'approver' });
    await until(() => creates(c, 'payouts.quote') === 2, 'the execution to ask for its quote');
    await child.kill();
    expect(row(c, id)).toMatchObject({ state: 'executing', checkpoints_json: '{}' });

    clock.set(new Date(Date.now() + 31_000));
    expect(await c.executor.recover()).toBe(1);
    expect(await c.approvals.get(id)).toMatchObject({ state: 'succeeded' });
    expect(creates(c)).toBe(1);
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
  });

  it('is taken over from another host only once its lease has run out, and the taker says so', async () => {
    const clock = manualClock();
    const logged: string[] = [];
    const metrics = new ServeMetrics();
    const c = await start({
      clock,
      log: createLogger('info', (line) => logged.push(line)),
      observe: { observe: metrics.observe },
    });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    await slowDown(c, PAYOUTS, 1000);
    // A process on another host: only its lease (30 s, renewed while it lived) counts.
    child = await startChild(c, { owner: 'other-host:4242' });
    child.send({ cmd: 'approve', id, as: 'approver' });
    await until(() => creates(c) === 1, 'the payout request to reach the sandbox');
    await child.kill();
    await until(async () => (await available(c)) === 250_000 - PAYOUT_DEBIT, 'the first payout to land');
    expect(row(c, id)).toMatchObject({ state: 'executing', owner: 'other-host:4242' });

    expect(await c.executor.recover()).toBe(0);
    // It renewed its lease every 10 s while it lived: held for at least 20 s after its death.
    clock.set(new Date(Date.now() + 5_000));
    expect(await c.executor.recover()).toBe(0);
    const lapsedLease = row(c, id).lease_until as string;
    // While it is held, `approvals executing` shows by whom and until when.
    expect(await c.executor.executingApprovals()).toEqual([
      expect.objectContaining({ id, state: 'executing', owner: 'other-host:4242', leaseUntil: lapsedLease }),
    ]);
    clock.set(new Date(Date.now() + 31_000));
    expect(await c.executor.recover()).toBe(1);
    expect(await c.approvals.get(id)).toMatchObject({ state: 'succeeded' });
    expect(creates(c)).toBe(2);
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
    expect(await c.executor.executingApprovals()).toEqual([]);

    // The taker says so: one log line, a feed event in the approval's history, and the metric.
    const lapsed = Math.round((clock.now().getTime() - Date.parse(lapsedLease)) / 1000);
    const lines = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((l) => l.message === 'execution taken over')).toEqual([
      expect.objectContaining({
        level: 'warn',
        approvalId: id,
        previousOwner: 'other-host:4242',
        owner: c.approvals.owner,
        lapsedSeconds: lapsed,
      }),
    ]);
    const history = await c.executor.approvalHistory(id);
    expect(history.filter((e) => e.kind === 'taken_over')).toEqual([
      expect.objectContaining({
        actor: 'system:approvals',
        detail: `replica ${c.approvals.owner} after the lease of other-host:4242 ran out (${lapsed} s before)`,
      }),
    ]);
    expect(history.map((e) => e.kind)).toEqual(['opened', 'voted', 'executing', 'taken_over', 'succeeded']);
    const scrape = await metrics.scrape({ storage: c.runtime.storage });
    expect(scrape.body).toContain('bankops_executions_taken_over_total 1');
    // Recovering it again takes nothing over.
    expect(await c.executor.recover()).toBe(0);
  });

  it('is started, not taken over, when nobody held it', async () => {
    const logged: string[] = [];
    const c = await start({ log: createLogger('info', (line) => logged.push(line)) });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    await c.executor.approve(id, c.approver);
    expect((await c.executor.approvalHistory(id)).map((e) => e.kind)).not.toContain('taken_over');
    expect(logged.filter((l) => l.includes('taken over'))).toEqual([]);
  });
});

describe('an execution whose outcome is unknown', () => {
  it('is sent again with the same request id, and pays once', async () => {
    const c = await start({ resendDelaysMs: [50, 50] });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    await fault(c, PAYOUTS, { status: 503 }, 1);
    expect(await c.executor.approve(id, c.approver)).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded' },
    });
    expect(creates(c)).toBe(2);
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
    const sends = (await c.audit.list({ approvalId: id, limit: 100 })).filter((e) => e.event === 'executing');
    expect(sends.map((e) => e.requestIds)).toEqual([[`${id}-1`], [`${id}-1`]]);
  });

  it('is unresolved after bounded re-sends, never failed, and a person reconciles it', async () => {
    const c = await start({ resendDelaysMs: [50, 50] });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    await fault(c, PAYOUTS, { status: 503 }, 3);
    const decided = await c.executor.approve(id, c.approver);
    expect(decided).toMatchObject({
      status: 'ok',
      approval: {
        state: 'unresolved',
        error: { message: expect.stringContaining(`outcome unknown after 3 sends of request ${id}-1`) },
      },
    });
    expect(creates(c)).toBe(3);
    // Until when a retry's stored quote holds is said before anyone retries, and what to do after it.
    const unresolved = await c.approvals.get(id);
    const quote = JSON.parse(row(c, id).checkpoints_json as string) as { quote: { expiresAt: string } };
    expect(unresolved?.quoteExpiresAt).toBe(quote.quote.expiresAt);
    expect(statusLine(unresolved as ApprovalView)).toContain(
      `Sending it again re-sends its quote, which holds until ${quote.quote.expiresAt}; after that it can only fail ("quote expired"): if the service has no such request, mark it not sent and ask again, for a fresh quote and a fresh approval`,
    );
    // An identical request cannot open a second payout meanwhile: it joins this one, and says so.
    const again = await c.call('create_payout', PAYOUT);
    expect(again).toMatchObject({ status: 'pending_approval', approvalId: id, joined: true });
    // Nothing sends it again by itself, so no later command is slowed by it.
    expect(await c.executor.recover()).toBe(0);
    expect(creates(c)).toBe(3);

    // Reconciling takes a person with the approver role who did not ask, and a retry resends the
    // same request, which the service answers.
    expect(await c.executor.reconcile(id, c.operator, { outcome: 'retry' })).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('requested'),
    });
    expect(await c.executor.reconcile(id, c.approver2, { outcome: 'failed', reason: ' ' })).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('--reason'),
    });
    const retried = await c.executor.reconcile(id, c.approver2, { outcome: 'retry' });
    expect(retried).toMatchObject({ status: 'ok', approval: { state: 'succeeded', requestId: `${id}-1` } });
    expect(creates(c)).toBe(4);
    expect(await available(c)).toBe(250_000 - PAYOUT_DEBIT);
    const entries = await c.audit.list({ approvalId: id, limit: 100 });
    expect(entries.filter((e) => e.decision === 'reconciled').map((e) => e.actor)).toEqual(['cli:approver2']);
  });

  it('can be settled by a person who looked it up at the service, either way', async () => {
    const c = await start({ resendDelaysMs: [] });
    const { id } = pending(await c.call('create_payout', PAYOUT));
    await fault(c, PAYOUTS, { status: 503 }, 1);
    expect(await c.executor.approve(id, c.approver)).toMatchObject({ approval: { state: 'unresolved' } });
    const settled = await c.executor.reconcile(id, c.approver2, {
      outcome: 'failed',
      reason: 'no payout with this request id at the service',
    });
    expect(settled).toMatchObject({
      status: 'ok',
      approval: {
        state: 'failed',
        decidedBy: 'cli:approver2',
        decisionReason: expect.stringContaining('no payout'),
      },
    });
    // Now a new request opens a new approval.
    expect(pending(await c.call('create_payout', PAYOUT)).id).not.toBe(id);
  });
});
