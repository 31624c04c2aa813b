import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creates, fault, PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore } from '../../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore({ resendDelaysMs: [20, 20] });
});
afterAll(() => core.close());

const QUOTES = '/svc/banking/api/v1/payouts/quote';

describe('an approval whose payout was never sent', () => {
  it('is not "outcome unknown, look it up at the service" when only the fresh quote failed', async () => {
    const { id } = pending(await core.call('create_payout', PAYOUT));
    // The quote endpoint has a 5-second blip; the payout itself is never sent.
    await fault(core, QUOTES, { status: 503 }, 3);
    const decided = await core.executor.approve(id, core.approver);
    expect(creates(core)).toBe(0);
    expect(decided.status === 'ok' ? decided.approval.state : decided.status).not.toBe('unresolved');
  });
});
