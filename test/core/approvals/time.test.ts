import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderText } from '../../../src/cli/render/text.js';
import { settlementLine, statusLine } from '../../../src/present/approval-words.js';
import { approvalDocument } from '../../../src/present/output/index.js';
import { approvalMessage } from '../../../src/slack/approvals/messages/approval.js';
import { PAYOUT, pending, until } from '../../helpers/approvals.js';
import { manualClock } from '../../helpers/clock.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

// One sandbox for the file; each core has its own database, clock and background work.
let manual: TestCore;
let background: TestCore;
const clock = manualClock();
const backgroundClock = manualClock();
beforeAll(async () => {
  manual = await createTestCore({ clock });
  background = await createTestCore({ sandbox: manual.sandbox, background: true, clock: backgroundClock });
});
afterAll(async () => {
  await background.close();
  await manual.close();
});

const advanceSandbox = async (seconds: number): Promise<void> => {
  const response = await fetch(`${manual.sandbox.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(response.status).toBe(200);
};

const TO_CLOSED_ACCOUNT = {
  ...PAYOUT,
  beneficiaryId: 'ben_us_fail_0001',
  destinationRail: 'FEDWIRE',
  amount: 500,
};

describe('money followed to the end', () => {
  it('shows a payout that FAILED at the service after approval, on the approval, the feed and the audit log', async () => {
    const { id } = pending(await manual.call('create_payout', TO_CLOSED_ACCOUNT));
    const sent = await manual.executor.approve(id, manual.approver);
    expect(sent).toMatchObject({
      status: 'ok',
      approval: {
        state: 'succeeded',
        settlement: { kind: 'payout', status: 'PENDING', outcome: 'settling' },
      },
    });
    if (sent.status !== 'ok') return;
    expect(settlementLine(sent.approval)).toMatch(/^Sent: payout \S+ is PENDING at the service/);
    // Sent: it counts in the payee's running total, and as paid to it.
    const toPayee = { of: 'beneficiary', subject: 'ben_us_fail_0001', currency: 'USD', since: [0] } as const;
    const counted = () =>
      manual.runtime.storage.read((s) => s.holds.count({ locks: [], queries: [toPayee] }));
    expect(await counted()).toEqual([[50_000]]);
    expect((await manual.runtime.payees.payouts('ben_us_fail_0001')).count).toBe(1);
    // Not asked before it is due; then asked, and the service says FAILED.
    expect(await manual.executor.settleDue()).toBe(0);
    await advanceSandbox(121);
    clock.advance(3_000);
    expect(await manual.executor.settleDue()).toBe(1);
    const view = await manual.executor.getApproval(id);
    expect(view).toMatchObject({ state: 'succeeded', settlement: { status: 'FAILED', outcome: 'failed' } });
    expect(view === undefined ? '' : statusLine(view)).toMatch(
      /^FAILED after approval: payout \S+ did not go through/,
    );
    // No money left: it no longer counts, nor is it a payment the payee had.
    expect(await counted()).toEqual([[0]]);
    await until(
      async () => (await manual.runtime.payees.payouts('ben_us_fail_0001')).count === 0,
      'the failed payout to leave the payee history',
    );
    const settled = (await manual.runtime.approvals.feed.after(0, 1000)).filter(
      (e) => e.approvalId === id && e.kind === 'settled',
    );
    expect(settled).toEqual([
      expect.objectContaining({ actor: 'system:approvals', detail: expect.stringContaining('FAILED') }),
    ]);
    const entry = (await manual.audit.list({ approvalId: id, limit: 100 })).find(
      (e) => e.event === 'settled',
    );
    expect(entry).toMatchObject({
      outcome: 'failed',
      decision: 'approved',
      error: expect.stringContaining('FAILED'),
    });
    // Final: nothing more to ask.
    clock.advance(60_000);
    expect(await manual.executor.settleDue()).toBe(0);
  });

  it('once run, the approval speaks in the past and shows the latest status, in the CLI and in Slack', async () => {
    const { id } = pending(await manual.call('create_payout', { ...PAYOUT, amount: 250 }));
    await manual.executor.approve(id, manual.approver);
    await advanceSandbox(121);
    clock.advance(3_000);
    await manual.executor.settleDue();
    const view = await manual.executor.getApproval(id);
    if (view === undefined) throw new Error('no approval');
    expect(view.settlement?.status).toBe('COMPLETED');
    const slack = JSON.stringify(
      approvalMessage(view, { policy: manual.policy.current(), registry: manual.registry }).blocks,
    );
    const cli = renderText(approvalDocument(view, { registry: manual.registry }), {
      color: false,
      width: 100,
    });
    for (const text of [slack, cli.replace(/\s+/g, ' ')]) {
      expect(text).toContain('Completed: payout');
      expect(text).toMatch(/Paid [\d,.]+ EUR to Rhein Maschinenbau GmbH/);
      expect(text).toMatch(/USD balance was [\d,.]+ USD when asked; debited [\d,.]+ USD/);
      expect(text).not.toContain('available now');
    }
    // The result line has the latest status the service gave, not the one it answered when sent.
    expect(slack).toMatch(/Result:\* create_payout ran \(payoutId \S+, status COMPLETED\)/);
    expect(slack).not.toContain('status PENDING');
  });

  it('follows sent money by itself in a long-running process, until COMPLETED', async () => {
    const { id } = pending(await background.call('create_payout', { ...PAYOUT, amount: 321 }));
    await background.executor.approve(id, background.approver);
    await advanceSandbox(121);
    // Its first look is due 2 s after sending.
    backgroundClock.advance(2_100);
    await until(
      async () => (await background.executor.getApproval(id))?.settlement?.outcome === 'completed',
      'the settlement to be followed without anyone asking',
      10_000,
    );
    expect((await background.executor.getApproval(id))?.settlement?.status).toBe('COMPLETED');
  });
});

describe('expiry on time', () => {
  it('expires an approval at its deadline with nobody reading it, and says so on the feed', async () => {
    const { id, expiresAt } = pending(await background.call('create_payout', { ...PAYOUT, amount: 654 }));
    const feed = background.runtime.approvals.feed;
    const expiry = async () =>
      (await feed.after(0, 1000)).find((e) => e.approvalId === id && e.kind === 'expired');
    // Only the feed is read here: reading the approval would expire it lazily.
    backgroundClock.set(new Date(Date.parse(expiresAt) - 1));
    expect(await expiry()).toBeUndefined();
    backgroundClock.set(expiresAt);
    await until(async () => (await expiry()) !== undefined, 'the expiry event', 5_000);
    expect(await expiry()).toMatchObject({ state: 'expired', actor: 'system:approvals' });
  });
});
