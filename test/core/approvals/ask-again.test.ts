import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { creates, fault, PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';
import { type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

/**
 * Ask again: an approval a person marked not sent is asked for once more, as a fresh approval (a
 * fresh quote when it runs); nothing is re-sent, and an approval whose money may have left
 * (unresolved) is refused until it is marked not sent.
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

describe('asking again for an approval marked not sent', () => {
  it('refuses while unresolved, then opens one fresh approval for the same request, audited on both', async () => {
    const c = await createTestCore({ sandbox, resendDelaysMs: [] });
    core = c;
    const { id } = pending(await c.call('create_payout', PAYOUT));
    await fault(c, PAYOUTS, { status: 503 }, 1);
    expect(await c.executor.approve(id, c.approver)).toMatchObject({ approval: { state: 'unresolved' } });

    // Its money may have left: nothing is asked again, and the refusal is on record.
    const early = await c.executor.askAgain(id, c.operator);
    expect(early).toMatchObject({
      status: 'denied',
      reason: expect.stringContaining('mark it not sent first'),
    });
    const refusals = (await c.audit.list({ approvalId: id, limit: 100 })).filter(
      (e) => e.decision === 'refused',
    );
    expect(refusals.map((e) => e.actor)).toEqual([c.operator.id]);

    await c.executor.reconcile(id, c.approver2, { outcome: 'failed', reason: `nothing under ${id}-1` });
    const sends = creates(c);
    const again = await c.executor.askAgain(id, c.operator);
    expect(again.status).toBe('pending_approval');
    if (again.status !== 'pending_approval') return;
    expect(again.approvalId).not.toBe(id);
    expect(again.approval).toMatchObject({
      tool: 'create_payout',
      state: 'pending',
      requester: c.operator.id,
    });
    expect(again.approval.input).toEqual((await c.executor.getApproval(id))?.input);
    // A second click joins the approval the first opened.
    expect(await c.executor.askAgain(id, c.operator)).toMatchObject({
      status: 'pending_approval',
      approvalId: again.approvalId,
      joined: true,
    });
    // Nothing was sent: the fresh approval waits for its approvers.
    expect(creates(c)).toBe(sends);

    const noted = (await c.audit.list({ approvalId: id, limit: 100 })).filter(
      (e) => e.decision === 'reconciled' && e.error?.includes('asked again'),
    );
    expect(noted.map((e) => e.error)).toEqual([
      `asked again by ${c.operator.id} as ${again.approvalId}: a fresh approval, with a fresh quote when it runs`,
    ]);
    const history = await c.executor.approvalHistory(id);
    expect(history.at(-1)?.detail).toContain(again.approvalId);

    // The fresh approval runs as any: approved, sent once, under its own request id.
    const ran = await c.executor.approve(again.approvalId, c.approver);
    expect(ran).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    expect(creates(c)).toBe(sends + 1);
  });

  it('refuses an approval that was not marked not sent, and one that does not exist', async () => {
    const c = await createTestCore({ sandbox });
    core = c;
    const { id } = pending(await c.call('create_payout', PAYOUT));
    expect(await c.executor.askAgain(id, c.operator)).toMatchObject({
      status: 'denied',
      reason: expect.stringContaining('only one a person marked not sent is asked again'),
    });
    expect(await c.executor.askAgain('apr_nothing', c.operator)).toMatchObject({
      status: 'invalid',
      message: expect.stringContaining('no approval apr_nothing'),
    });
  });
});
