import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pending } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());

// A USD payout to the seeded ACH payee, just under the large-payouts threshold (50,000 USD).
const payout = {
  beneficiaryId: 'ben_us_ach_0001',
  sourceAccountId: 'acc_usd_0001',
  sourceAssetCode: 'USD',
  destinationRail: 'ACH',
  side: 'SOURCE',
  purposeCode: 'GOODS_PURCHASED',
} as const;

describe('amounts with more decimals than their currency', () => {
  it('refuses 10000.005 USD as invalid, as it refuses 100.123 USD', async () => {
    const small = await core.call('create_payout', { ...payout, amount: 100.123 });
    expect(small.status).toBe('invalid');
    const large = await core.call('create_payout', { ...payout, amount: 10000.005 });
    expect(large.status).toBe('invalid');
  });

  it('never lets 49,999.999 USD pick the one-approver rule and then pay 50,000.00 USD', async () => {
    const result = await core.call('create_payout', { ...payout, amount: 49999.999 });
    if (result.status !== 'invalid') {
      // Were it taken, one approver would send a quote the service rounds to 50,000.00 USD.
      const approval = pending(result);
      const vote = await core.executor.approve(approval.id, core.approver);
      expect({
        reason: approval.reason,
        requiredApprovers: approval.requiredApprovers,
        state: vote.status === 'ok' ? vote.approval.state : vote.status,
        sent:
          vote.status === 'ok'
            ? (vote.approval.result?.quote as { sourceAmount?: number })?.sourceAmount
            : null,
      }).toEqual({ status: 'invalid' });
    }
    expect(result.status).toBe('invalid');
  });
});
