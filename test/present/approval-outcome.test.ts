import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approvalOutcome, stateWords } from '../../src/present/approval-outcome.js';
import { fault, PAYOUT, pending } from '../helpers/approvals.js';
import { manualClock } from '../helpers/clock.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { raw } from '../helpers/sandbox.js';

/** Each outcome of approve, reject and cancel, from the real engine, worded once for every front end. */

let core: TestCore;
beforeAll(async () => {
  // No pauses between re-sends: an unanswered execution stays `executing` at once.
  core = await createTestCore({ resendDelaysMs: [] });
});
afterAll(() => core.close());
beforeEach(() => core.sandbox.reset());

const CARD = { cardholderId: 'chb_demo_alice', walletId: 'wal_demo_alice_usd' };
// Each test asks for its own amount: an identical request would join the previous test's approval.
let amount = 1000;
const payout = () => {
  amount += 1;
  return { ...PAYOUT, amount };
};

describe('approval outcomes', () => {
  it('executed: names the tool, the id of what it created and where the money stands, class ok', async () => {
    const id = pending(await core.call('create_payout', payout())).id;
    const outcome = approvalOutcome('approve', await core.executor.approve(id, core.approver));
    expect(outcome).toMatchObject({ status: 'executed', class: 'ok' });
    expect(outcome.line).toMatch(
      new RegExp(
        `^Executed: create_payout ran for ${id} \\(payoutId (po_\\w+), status PENDING\\)\\. Sent: payout \\1 is PENDING at the service \\(checked \\S+\\)\\.$`,
      ),
    );
  });

  it('voted: says how many approvals are in and how many are missing', async () => {
    const id = pending(await core.call('create_payout', { ...PAYOUT, amount: 60_000 })).id;
    const outcome = approvalOutcome('approve', await core.executor.approve(id, core.approver));
    expect(outcome).toEqual({
      status: 'voted',
      class: 'ok',
      line: `Vote recorded on ${id}: 1 of 2 approvals; 1 more person with role approver must approve before create_payout runs.`,
    });
  });

  it('failed: gives the service’s message, class failed', async () => {
    const id = pending(
      await core.call('update_card_status_b', {
        ...CARD,
        cardId: 'card_demo_alice_stolen',
        status: 'BLOCKED',
      }),
    ).id;
    const outcome = approvalOutcome('approve', await core.executor.approve(id, core.approver));
    expect(outcome.status).toBe('failed');
    expect(outcome.class).toBe('failed');
    expect(outcome.line).toMatch(
      new RegExp(
        `^Failed: update_card_status_b was refused for ${id}: .*permanently blocked.*\\. Nothing was done\\.$`,
      ),
    );
  });

  it('unresolved: no answer after every re-send; a person looks it up and reconciles it', async () => {
    const id = pending(await core.call('create_payout', payout())).id;
    await fault(core, '/svc/banking/api/v1/payouts', { status: 503 }, 3);
    const outcome = approvalOutcome('approve', await core.executor.approve(id, core.approver));
    expect(outcome).toMatchObject({ status: 'unresolved', class: 'unfinished' });
    expect(outcome.line).toContain(`Look up request id ${id}-1 at the service, then reconcile ${id}`);
    const settled = await core.executor.reconcile(id, core.approver, {
      outcome: 'failed',
      reason: 'not at the bank',
    });
    expect(approvalOutcome('reconcile', settled)).toEqual({
      status: 'reconciled',
      class: 'ok',
      line: `Reconciled ${id} as failed: not at the bank. Nothing was done; a new request may be made.`,
    });
  });

  it('executed, then FAILED after approval at the service: both are said, class failed', async () => {
    // Its own core, with a clock to move: bankops looks at sent money a little after sending it.
    const clock = manualClock();
    const own = await createTestCore({ clock });
    try {
      const failing = { ...payout(), beneficiaryId: 'ben_us_fail_0001', destinationRail: 'FEDWIRE' };
      const id = pending(await own.call('create_payout', failing)).id;
      await own.executor.approve(id, own.approver);
      // The sandbox fails payouts to this payee 120 s after they were made.
      own.sandbox.clock.advance(121);
      clock.advance(125_000);
      await own.approvals.settleDue();
      const view = await own.executor.getApproval(id);
      if (view === undefined) throw new Error('no approval');
      expect(stateWords(view)).toBe('succeeded (sent; FAILED after approval)');
      const outcome = approvalOutcome('approve', { status: 'ok', approval: view });
      expect(outcome).toMatchObject({ status: 'failed', class: 'failed' });
      expect(outcome.line).toMatch(
        /^Executed: create_payout ran for apr_\w+ \(payoutId (po_\w+), status PENDING\)\. FAILED after approval: payout \1 did not go through at the service\.$/,
      );
    } finally {
      await own.close();
    }
  });

  it('sent back: a fresh quote outside the bound goes back to the approvers, class unfinished', async () => {
    const id = pending(await core.call('create_payout', { ...payout(), destinationAssetCode: 'EUR' })).id;
    const moved = await raw(core.sandbox, 'POST', '/_sandbox/banking/rates', {
      headers: { 'content-type': 'application/json' },
      body: { rates: { EUR: 1.3 } },
    });
    expect(moved.status).toBe(200);
    const outcome = approvalOutcome('approve', await core.executor.approve(id, core.approver));
    expect(outcome).toMatchObject({ status: 'sent_back', class: 'unfinished' });
    // Which bound failed, with both figures.
    expect(outcome.line).toMatch(
      /^Not executed: the fresh quote delivers [\d,.]+ EUR, less than the approved minimum of [\d,.]+ EUR\. apr_\w+ went back to the approvers \(attempt 2\); the new limit is [\d,.]+ USD; nothing was sent\.$/,
    );
  });

  it('rejected, cancelled, refused and not found', async () => {
    const first = pending(await core.call('create_payout', payout())).id;
    expect(
      approvalOutcome('reject', await core.executor.reject(first, core.approver, 'wrong payee')),
    ).toEqual({
      status: 'rejected',
      class: 'ok',
      line: `Rejected ${first}: wrong payee. create_payout will not run.`,
    });
    const second = pending(await core.call('create_payout', payout())).id;
    const own = approvalOutcome('approve', await core.executor.approve(second, core.operator));
    expect(own).toMatchObject({ status: 'refused', class: 'denied' });
    expect(own.line).toMatch(/^Refused: .+\.$/);
    expect(approvalOutcome('cancel', await core.executor.cancel(second, core.operator))).toMatchObject({
      status: 'cancelled',
      class: 'ok',
    });
    expect(approvalOutcome('approve', await core.executor.approve('apr_nope', core.approver))).toEqual({
      status: 'not_found',
      class: 'invalid',
      line: 'No approval apr_nope.',
    });
  });
});
