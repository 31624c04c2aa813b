import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundFor, exceedsBound } from '../../../src/core/approvals/index.js';
import type { FxQuote } from '../../../src/core/client/schemas/conversions.js';
import { defineTool, type Preview, type ToolContext } from '../../../src/core/tool.js';
import { checkApprovedBound } from '../../../src/tools/banking/bound-check.js';
import { available, creates, PAYOUT, pending } from '../../helpers/approvals.js';
import { createTestCore, type TestCore, type TestCoreOptions } from '../../helpers/core.js';
import { raw } from '../../helpers/sandbox.js';

/**
 * A real tool whose price honestly moves between approval and execution: it sells the whole EUR
 * balance, and the balance grows when money comes in: the engine's "outside the bound" path for an
 * amount that changes, next to create_payout's rate that changes (`/_sandbox/banking/rates`).
 */
const sweepEur = defineTool({
  name: 'sweep_eur_to_usd',
  title: 'Sell the whole EUR balance for USD',
  description:
    'Test fixture: converts all available EUR into USD, after approval, within the approved bound.',
  toolset: 'banking',
  input: z.object({}),
  output: z.object({ conversionId: z.string() }),
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  preview: async (_, ctx) => previewOf(await quoteAll(ctx)),
  run: async (_, ctx) => {
    const q = await ctx.once('quote', () => quoteAll(ctx));
    await checkApprovedBound(
      ctx,
      {
        debit: { amount: q.sourceAmount, currency: 'EUR' },
        receive: { amount: q.targetAmount, currency: 'USD' },
      },
      async () => previewOf(q),
    );
    const created = await ctx.client.conversions.create(
      { companyCode: ctx.defaults.companyCode, quoteId: q.quoteId },
      { requestId: ctx.requestId },
    );
    return { conversionId: created.conversionId };
  },
});

async function quoteAll(ctx: ToolContext): Promise<FxQuote> {
  const { balances } = await ctx.client.accounts.balances({ companyCode: ctx.defaults.companyCode });
  const eur = balances.find((b) => b.currency === 'EUR')?.availableBalance ?? 0;
  return ctx.client.conversions.quote({
    companyCode: ctx.defaults.companyCode,
    sourceAssetCode: 'EUR',
    targetAssetCode: 'USD',
    amount: eur,
    side: 'SOURCE',
  });
}

const previewOf = (q: FxQuote): Preview => ({
  summary: `Sell ${q.sourceAmount} EUR for ${q.targetAmount} USD`,
  details: q,
  bound: { amount: q.sourceAmount, currency: 'EUR' },
});

const POLICY = `
roles: [operator, approver]
actors:
  - match: { cli: "*" }
    roles: [operator, approver]
rules:
  - tools: [sweep_eur_to_usd]
    allow: [operator]
    approval: { approvers: 1, role: approver }
  - readOnly: true
    allow: [operator, approver]
`;

let core: TestCore | undefined;
async function start(options: TestCoreOptions = {}): Promise<TestCore> {
  core = await createTestCore(options);
  return core;
}
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** Money comes in: 5,000 USD converted into EUR, straight at the service. */
async function receiveEur(c: TestCore): Promise<void> {
  const q = await c.client.conversions.quote({
    companyCode: 'CMP-DEMO',
    sourceAssetCode: 'USD',
    targetAssetCode: 'EUR',
    amount: 5000,
    side: 'SOURCE',
  });
  await c.client.conversions.create({ companyCode: 'CMP-DEMO', quoteId: q.quoteId });
}

describe('a fresh quote outside the approved bound', () => {
  it('goes back to the approvers with the new quote, as a new attempt with a new request id', async () => {
    const c = await start({ policyYaml: POLICY, extraTools: [sweepEur] });
    const approval = pending(await c.call('sweep_eur_to_usd', {}));
    expect(approval.bound).toEqual({
      quoted: { amount: 120_000, currency: 'EUR' },
      tolerancePercent: 0.5,
      max: { amount: 120_600, currency: 'EUR' },
    });
    await receiveEur(c);
    const eur = await available(c, 'EUR');
    expect(eur).toBeGreaterThan(120_600);

    const first = await c.executor.approve(approval.id, c.approver);
    expect(first).toMatchObject({
      status: 'ok',
      approval: {
        state: 'pending',
        attempt: 2,
        requestId: `${approval.id}-2`,
        approvals: [],
        bound: { quoted: { amount: eur, currency: 'EUR' } },
        error: {
          message: expect.stringMatching(
            /^the fresh quote debits 124,594\.47 EUR, more than the approved maximum of 120,600\.00 EUR$/,
          ),
        },
      },
    });
    // Nothing was sold at the worse price: only the top-up conversion exists.
    expect(creates(c, 'conversions.create')).toBe(1);
    expect(await available(c, 'EUR')).toBe(eur);
    const reopened = (await c.audit.list({ approvalId: approval.id, order: 'desc', limit: 1 }))[0];
    expect(reopened).toMatchObject({
      event: 'requested',
      decision: 'approval_required',
      requestIds: [`${approval.id}-2`],
    });

    // The same approver may approve the new quote: their first vote was for the old one.
    const second = await c.executor.approve(approval.id, c.approver);
    expect(second).toMatchObject({ status: 'ok', approval: { state: 'succeeded', attempt: 2 } });
    expect(await available(c, 'EUR')).toBe(0);
    const executions = (await c.audit.list({ approvalId: approval.id, limit: 100 })).filter(
      (e) => e.event === 'executing',
    );
    expect(executions.map((e) => e.requestIds)).toEqual([[`${approval.id}-1`], [`${approval.id}-2`]]);
  });

  it('executes a quote up to the tolerance above what was shown', async () => {
    const c = await start({
      policyYaml: POLICY,
      extraTools: [sweepEur],
      tolerancePercent: 5,
    });
    const approval = pending(await c.call('sweep_eur_to_usd', {}));
    expect(approval.bound?.max).toEqual({ amount: 126_000, currency: 'EUR' });
    await receiveEur(c);
    expect(await c.executor.approve(approval.id, c.approver)).toMatchObject({
      status: 'ok',
      approval: { state: 'succeeded', attempt: 1 },
    });
    expect(await available(c, 'EUR')).toBe(0);
  });

  it('create_payout goes back to the approvers when the rate moves, and executes at the new quote once re-approved', async () => {
    const c = await start();
    // 1,000 EUR delivered, paid from USD: the USD debit follows the EUR rate.
    const approval = pending(
      await c.call('create_payout', { ...PAYOUT, destinationAssetCode: 'EUR', side: 'TARGET' }),
    );
    const shown = approval.bound?.quoted.amount ?? Number.NaN;
    expect(approval.bound?.quoted.currency).toBe('USD');

    // The euro rises 10 % between the request and the approval.
    const moved = await raw(c.sandbox, 'POST', '/_sandbox/banking/rates', {
      headers: { 'content-type': 'application/json' },
      body: { rates: { EUR: 1.085 * 1.1 } },
    });
    expect(moved.status).toBe(200);
    const before = await available(c);

    const first = await c.executor.approve(approval.id, c.approver);
    expect(first).toMatchObject({ status: 'ok', approval: { state: 'pending', attempt: 2, approvals: [] } });
    if (first.status !== 'ok') return;
    const requoted = first.approval.bound?.quoted.amount ?? Number.NaN;
    expect(requoted).toBeGreaterThan(shown * 1.09);
    expect(creates(c)).toBe(0);
    expect(await available(c)).toBe(before);

    const second = await c.executor.approve(approval.id, c.approver);
    expect(second).toMatchObject({ status: 'ok', approval: { state: 'succeeded', attempt: 2 } });
    expect(creates(c)).toBe(1);
    expect(await available(c)).toBeCloseTo(before - requoted, 2);
  });
});

describe('a fixed debit at a worse rate', () => {
  const moveEur = (c: TestCore, factor: number) =>
    raw(c.sandbox, 'POST', '/_sandbox/banking/rates', {
      headers: { 'content-type': 'application/json' },
      body: { rates: { EUR: 1.085 * factor } },
    });

  it('sends a SOURCE-side payout back when the payee would receive less than approved', async () => {
    const c = await start();
    const approval = pending(await c.call('create_payout', { ...PAYOUT, destinationAssetCode: 'EUR' }));
    expect(approval.bound?.minReceive?.currency).toBe('EUR');
    // The euro doubles: the same 1,000 USD would buy half the euros the approvers saw.
    expect((await moveEur(c, 2)).status).toBe(200);
    const result = await c.executor.approve(approval.id, c.approver);
    expect(result).toMatchObject({ status: 'ok', approval: { state: 'pending', attempt: 2 } });
    expect(creates(c)).toBe(0);
    // The reason names the bound that failed (what the payee receives), with both figures, and not
    // the debit, which did not move.
    const minimum = approval.bound?.minReceive?.amount ?? 0;
    const reason = result.status === 'ok' ? (result.approval.error?.message ?? '') : '';
    expect(reason).toMatch(
      /^the fresh quote delivers [\d,.]+ EUR, less than the approved minimum of [\d,.]+ EUR$/,
    );
    expect(reason).toContain(minimum.toLocaleString('en-US', { minimumFractionDigits: 2 }));
    expect(reason).not.toContain('debits');
  });

  it('sends a SOURCE-side conversion back when the company would receive less than approved', async () => {
    const c = await start();
    const approval = pending(
      await c.call('create_conversion', {
        sourceAssetCode: 'USD',
        targetAssetCode: 'EUR',
        amount: 1000,
        side: 'SOURCE',
      }),
    );
    expect((await moveEur(c, 2)).status).toBe(200);
    const result = await c.executor.approve(approval.id, c.approver);
    expect(result).toMatchObject({ status: 'ok', approval: { state: 'pending', attempt: 2 } });
    expect(creates(c, 'conversions.create')).toBe(0);
  });

  it('executes within the tolerance below what was shown', async () => {
    const c = await start();
    const approval = pending(await c.call('create_payout', { ...PAYOUT, destinationAssetCode: 'EUR' }));
    // 0.2 % fewer euros: inside the default 0.5 % tolerance.
    expect((await moveEur(c, 1.002)).status).toBe(200);
    const result = await c.executor.approve(approval.id, c.approver);
    expect(result).toMatchObject({ status: 'ok', approval: { state: 'succeeded' } });
    expect(creates(c)).toBe(1);
  });
});

describe('bounds', () => {
  it('adds the tolerance in minor units, rounding down', () => {
    expect(boundFor({ amount: 1026, currency: 'USD' }, 0.5).max).toEqual({
      amount: 1031.13,
      currency: 'USD',
    });
    expect(boundFor({ amount: 1026, currency: 'usd' }, 0).max).toEqual({ amount: 1026, currency: 'USD' });
    expect(boundFor({ amount: 999, currency: 'JPY' }, 0.5).max).toEqual({ amount: 1003, currency: 'JPY' });
    expect(boundFor({ amount: 0.1 + 0.2, currency: 'EUR' }, 0).quoted.amount).toBe(0.3);
  });

  it('refuses more minor units, or another currency', () => {
    const bound = { amount: 1031.13, currency: 'USD' };
    expect(exceedsBound({ amount: 1031.13, currency: 'USD' }, bound)).toBe(false);
    expect(exceedsBound({ amount: 1031.14, currency: 'USD' }, bound)).toBe(true);
    expect(exceedsBound({ amount: 1000, currency: 'EUR' }, bound)).toBe(true);
    expect(
      exceedsBound({ amount: 1026 * 1.005, currency: 'USD' }, { amount: 1031.13, currency: 'USD' }),
    ).toBe(false);
  });
});
