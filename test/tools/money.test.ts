import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createConversion } from '../../src/tools/banking/create-conversion.js';
import { createPayout } from '../../src/tools/banking/create-payout.js';
import { moneyTools } from '../../src/tools/banking/index.js';
import { available, creates, fault, PAYOUT, PAYOUT_DEBIT, pending } from '../helpers/approvals.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { advanceClock } from '../helpers/sandbox.js';

let core: TestCore;
beforeEach(async () => {
  core = await createTestCore();
});
afterEach(async () => {
  await core.close();
});

describe('create_payout', () => {
  it('waits for a second person, then pays exactly once', async () => {
    const approval = pending(await core.call('create_payout', PAYOUT));
    expect(approval).toMatchObject({
      tool: 'create_payout',
      state: 'pending',
      requester: 'cli:operator',
      requiredApprovers: 1,
    });
    // Approvers see the quote, and the most the execution may debit: the quote + 0.5 %.
    expect(approval.preview?.details).toMatchObject({
      totalDebitAmount: PAYOUT_DEBIT,
      destinationAssetCode: 'EUR',
    });
    expect(approval.preview?.summary).toContain('total debit 1,026.00 USD');
    expect(approval.preview?.summary).toContain('at most 1,031.13 USD');
    expect(approval.bound).toEqual({
      quoted: { amount: 1026, currency: 'USD' },
      tolerancePercent: 0.5,
      max: { amount: 1031.13, currency: 'USD' },
      minReceive: { amount: 914.3, currency: 'EUR' },
    });
    expect(approval.preview?.summary).toContain('delivers at least 914.30 EUR');
    expect(creates(core)).toBe(0);

    const self = await core.executor.approve(approval.id, core.operator);
    expect(self).toMatchObject({ status: 'refused', reason: expect.stringContaining('cannot approve') });
    expect(creates(core)).toBe(0);

    const decided = await core.executor.approve(approval.id, core.approver);
    if (decided.status !== 'ok') throw new Error(JSON.stringify(decided));
    expect(decided.approval.state).toBe('succeeded');
    const result = decided.approval.result as {
      payoutId: string;
      status: string;
      quote: { quoteId: string };
    };
    expect(result.status).toBe('PENDING');
    expect(await core.ok('get_payout', { payoutId: result.payoutId })).toMatchObject({
      payoutId: result.payoutId,
    });
    expect(creates(core)).toBe(1);
    expect(await available(core)).toBe(250_000 - PAYOUT_DEBIT);

    // The approval is closed: a late vote changes nothing.
    expect(await core.executor.approve(approval.id, core.approver2)).toMatchObject({ status: 'refused' });
    expect(creates(core)).toBe(1);
  });

  it('needs two distinct approvers at 50,000 USD and more; the same approver counts once', async () => {
    const big = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 60_000 };
    const approval = pending(await core.call('create_payout', big));
    expect(approval.requiredApprovers).toBe(2);
    expect(approval.reason).toMatch(/large-payouts|2 approver/);

    const first = await core.executor.approve(approval.id, core.approver);
    expect(first).toMatchObject({
      status: 'ok',
      approval: { state: 'pending', approvals: [{ approver: 'cli:approver' }] },
    });
    const again = await core.executor.approve(approval.id, core.approver);
    expect(again).toMatchObject({ status: 'refused', reason: expect.stringContaining('already approved') });
    expect((await core.approvals.get(approval.id))?.approvals).toHaveLength(1);
    expect(creates(core)).toBe(0);

    const second = await core.executor.approve(approval.id, core.approver2);
    expect(second).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    expect(creates(core)).toBe(1);
    // ACH: processing fee 1, platform fee 0.1 % = 60.
    expect(await available(core)).toBe(250_000 - 60_061);
  });

  it('executes on a fresh quote when the one shown has expired', async () => {
    const approval = pending(await core.call('create_payout', PAYOUT));
    const shown = approval.preview?.details as { quoteId: string };
    await advanceClock(core.sandbox, 76);
    // The quote approvers saw is dead at the service…
    await expect(
      core.client.payouts.create({
        companyCode: 'CMP-DEMO',
        quoteId: shown.quoteId,
        purposeCode: 'GOODS_PURCHASED',
      }),
    ).rejects.toThrow(/expired/);

    const decided = await core.executor.approve(approval.id, core.approver);
    expect(decided).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    const used = (decided.status === 'ok' ? decided.approval.result : {}) as {
      quote: { quoteId: string; totalDebitAmount: number };
    };
    // …so the payout went out on a new one, within the approved bound.
    expect(used.quote.quoteId).not.toBe(shown.quoteId);
    expect(used.quote.totalDebitAmount).toBeLessThanOrEqual(approval.bound?.max.amount ?? 0);
    expect(await available(core)).toBe(250_000 - PAYOUT_DEBIT);
  });

  it('refuses a payout the balance cannot cover before anyone is asked', async () => {
    const tooBig = { ...PAYOUT, beneficiaryId: 'ben_us_ach_0001', destinationRail: 'ACH', amount: 300_000 };
    expect(await core.call('create_payout', tooBig)).toMatchObject({
      status: 'failed',
      error: { kind: 'insufficient_balance', message: expect.stringContaining('250,000.00 USD available') },
    });
    expect(await available(core)).toBe(250_000);
  });

  it('reports a payout the service refuses after approval as failed, with the service message', async () => {
    const approval = pending(await core.call('create_payout', { ...PAYOUT, amount: 42 }));
    await fault(core, '/svc/banking/api/v1/payouts', { status: 400 }, 1);
    const decided = await core.executor.approve(approval.id, core.approver);
    expect(decided).toMatchObject({
      status: 'ok',
      approval: {
        state: 'failed',
        error: { kind: 'service', httpStatus: 400, message: 'injected failure 400' },
      },
    });
    expect(await available(core)).toBe(250_000);
  });

  it('opens no approval when the quote for approvers cannot be had', async () => {
    const result = await core.call('create_payout', { ...PAYOUT, beneficiaryId: 'ben_nobody' });
    expect(result).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining("'ben_nobody' not found") },
    });
    expect(await core.approvals.list()).toEqual([]);
    const last = (await core.audit.list({ order: 'desc', limit: 1 }))[0];
    expect(last).toMatchObject({ event: 'requested', decision: 'approval_required', outcome: 'failed' });
  });

  it('measures TARGET amounts in the payee currency, against that currency’s threshold', async () => {
    const target = { ...PAYOUT, side: 'TARGET', amount: 46_000 };
    // Without the currency the amount is in, the policy could not tell a large payout: refused.
    expect(await core.call('create_payout', target)).toMatchObject({
      status: 'invalid',
      errors: [{ path: 'destinationAssetCode' }],
    });
    expect(createPayout.money?.({ ...target, destinationAssetCode: 'EUR' } as never)).toEqual({
      amount: 46_000,
      currency: 'EUR',
    });
    // 46,000 EUR is over the EUR threshold of 45,000 (the USD threshold of 50,000 would not catch it).
    const approval = pending(await core.call('create_payout', { ...target, destinationAssetCode: 'EUR' }));
    expect(approval.requiredApprovers).toBe(2);
    expect(approval.preview?.details).toMatchObject({
      destinationAmount: 46_000,
      destinationAssetCode: 'EUR',
    });
  });
});

describe('create_conversion', () => {
  it('converts after approval, debiting the source once', async () => {
    const approval = pending(
      await core.call('create_conversion', {
        sourceAssetCode: 'USD',
        targetAssetCode: 'EUR',
        amount: 1000,
        side: 'SOURCE',
      }),
    );
    expect(approval.bound?.quoted).toEqual({ amount: 1000, currency: 'USD' });
    expect(approval.preview?.summary).toMatch(/^Convert 1,000.00 USD to [\d,.]+ EUR at/);
    expect(creates(core, 'conversions.create')).toBe(0);

    const decided = await core.executor.approve(approval.id, core.approver);
    expect(decided).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded', result: { status: 'EXECUTING' } },
    });
    const result = (decided.status === 'ok' ? decided.approval.result : {}) as {
      conversionId: string;
      quote: { targetAmount: number };
    };
    expect(await core.ok('get_conversion', { conversionId: result.conversionId })).toMatchObject({
      conversionId: result.conversionId,
    });
    expect(creates(core, 'conversions.create')).toBe(1);
    expect(await available(core, 'USD')).toBe(249_000);
    expect(await available(core, 'EUR')).toBe(120_000 + result.quote.targetAmount);
  });

  it('reports the amount in the currency the side names', () => {
    const base = { sourceAssetCode: 'USD', targetAssetCode: 'EUR', amount: 10 } as const;
    expect(createConversion.money?.({ ...base, side: 'SOURCE' })).toEqual({ amount: 10, currency: 'USD' });
    expect(createConversion.money?.({ ...base, side: 'TARGET' })).toEqual({ amount: 10, currency: 'EUR' });
  });
});

describe('money tool definitions', () => {
  it.each(moneyTools.map((t) => [t.name, t] as const))(
    '%s is described for people and assistants',
    (_, tool) => {
      expect(tool.toolset).toBe('banking');
      expect(tool.hints).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true });
      expect(tool.description).toMatch(/only after approvers accept/);
      expect(tool.description).toMatch(/75 s/);
      expect(tool.description).toMatch(/fresh quote/);
      expect(tool.description.length).toBeLessThanOrEqual(400);
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as {
        properties: Record<string, { description?: string }>;
      };
      for (const [key, property] of Object.entries(schema.properties))
        expect(property.description, key).toBeTruthy();
      expect(tool.preview).toBeTypeOf('function');
    },
  );
});
