import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approvalOutcome } from '../../src/present/approval-outcome.js';
import { fault, PAYOUT, pending } from '../helpers/approvals.js';
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
  it('executed: names the tool and the id of what it created, class ok', async () => {
    const id = pending(await core.call('create_payout', payout())).id;
    const outcome = approvalOutcome('approve', await core.executor.approve(id, core.approver));
    expect(outcome).toMatchObject({ status: 'executed', class: 'ok' });
    expect(outcome.line).toMatch(
      new RegExp(`^Executed: create_payout ran for ${id} \\(payoutId po\\w*_\\w+, status PENDING\\)\\.$`),
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

  it('unknown: the service did not answer; a person looks it up by its request id and reconciles it', async () => {
    const id = pending(await core.call('create_payout', payout())).id;
    await fault(core, '/svc/banking/api/v1/payouts', { status: 503 }, 1);
    const outcome = approvalOutcome('approve', await core.executor.approve(id, core.approver));
    expect(outcome).toMatchObject({ status: 'unknown', class: 'unfinished' });
    expect(outcome.line).toContain(`look up request ${id}-1 at the service and reconcile ${id}`);
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
    expect(outcome.line).toMatch(
      /^Not executed: a fresh quote for create_payout was outside the approved bound/,
    );
    expect(outcome.line).toContain('Nothing was sent.');
  });

  it('rejected, cancelled, refused and not found', async () => {
    const first = pending(await core.call('create_payout', payout())).id;
    expect(approvalOutcome('reject', core.executor.reject(first, core.approver, 'wrong payee'))).toEqual({
      status: 'rejected',
      class: 'ok',
      line: `Rejected ${first}: wrong payee. create_payout will not run.`,
    });
    const second = pending(await core.call('create_payout', payout())).id;
    const own = approvalOutcome('approve', await core.executor.approve(second, core.operator));
    expect(own).toMatchObject({ status: 'refused', class: 'denied' });
    expect(own.line).toMatch(/^Refused: .+\.$/);
    expect(approvalOutcome('cancel', core.executor.cancel(second, core.operator))).toMatchObject({
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
