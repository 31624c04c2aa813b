import { z } from 'zod';
import type { PreviewFacts } from '../../core/approvals/view-schema.js';
import { type FxQuote, FxQuoteSchema } from '../../core/client/schemas/conversions.js';
import { formatAmount } from '../../core/money.js';
import { optional } from '../../core/optional.js';
import { defineTool, type Preview, type ToolContext } from '../../core/tool.js';
import { amountField, companyCodeField, currencyCode, sideField } from '../banking/fields.js';
import { beforeSending } from '../shared/before-sending.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { type BalanceFacts, companyBalance, minorUnitsIssue, settlementOutcome } from './balance.js';
import { checkApprovedBound } from './bound-check.js';

const input = z
  .object({
    sourceAssetCode: currencyCode.describe('Currency sold (debited).'),
    targetAssetCode: currencyCode.describe('Currency bought (credited).'),
    amount: amountField,
    side: sideField,
    clientReference: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('Your own reference, returned as externalReference.'),
    companyCode: companyCodeField,
  })
  .superRefine((value, ctx) => {
    const issue = minorUnitsIssue(
      value.amount,
      value.side === 'SOURCE' ? value.sourceAssetCode : value.targetAssetCode,
    );
    if (issue !== undefined) ctx.addIssue(issue);
  });
type Input = z.infer<typeof input>;

const output = z.object({
  conversionId: z.string().describe('Conversion id, for get_conversion.'),
  externalReference: z.string().nullish().describe('clientReference, or a reference the service generated.'),
  status: z.string().describe('EXECUTING right after creation.'),
  quote: FxQuoteSchema.describe('The quote the conversion was executed on (taken at execution).'),
});

function quote(input: Input, ctx: ToolContext): Promise<FxQuote> {
  return ctx.client.conversions.quote(
    {
      companyCode: input.companyCode ?? ctx.defaults.companyCode,
      direction: 'FX_CONVERT',
      sourceAssetCode: input.sourceAssetCode,
      targetAssetCode: input.targetAssetCode,
      amount: input.amount,
      side: input.side,
    },
    readOptions(ctx),
  );
}

// The spread is in the rate; fees in another currency than the source would not be in this bound,
// and the spec shows none (the sandbox quotes 0 and no fee currency).
const debitOf = (q: FxQuote) => ({ amount: q.sourceAmount, currency: q.sourceAssetCode });

const receiveOf = (q: FxQuote) => ({ amount: q.targetAmount, currency: q.targetAssetCode });

function previewOf(q: FxQuote, balance?: BalanceFacts): Preview {
  const facts: PreviewFacts = {
    kind: 'conversion',
    sell: debitOf(q),
    buy: receiveOf(q),
    rate: q.rate,
    ...(q.feeAssetCode === null || q.feeAssetCode === undefined
      ? {}
      : { fees: { amount: (q.processingFee ?? 0) + (q.networkFee ?? 0), currency: q.feeAssetCode } }),
    totalDebit: debitOf(q),
    ...optional('balance', balance),
  };
  return {
    summary: `Convert ${formatAmount(debitOf(q))} to ${formatAmount(receiveOf(q))} at ${q.rate} ${q.currencyPair}`,
    facts,
    details: q,
    bound: debitOf(q),
    receive: receiveOf(q),
  };
}

const companyOf = (i: Input, ctx: ToolContext) => i.companyCode ?? ctx.defaults.companyCode;

export const createConversion = defineTool({
  name: 'create_conversion',
  title: 'Convert currency',
  description:
    "Converts between two of the company's currencies, only after approvers accept its quote (valid 75 s). At execution a fresh quote is used only if the amount sold is within the approved bound, else it goes back to them.",
  toolset: 'banking',
  input,
  output,
  // Executed at a rate that cannot be undone without a second conversion at another rate.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  // For the policy's thresholds: the amount in the currency `side` names (see create_payout).
  money: (i) => ({ amount: i.amount, currency: i.side === 'SOURCE' ? i.sourceAssetCode : i.targetAssetCode }),
  preview: async (i, ctx) => {
    const q = await quote(i, ctx);
    return previewOf(q, await companyBalance(ctx, companyOf(i, ctx), debitOf(q)));
  },
  check: async (i, ctx, approval) => {
    const debit = approval.bound?.quoted;
    if (debit !== undefined) await companyBalance(ctx, companyOf(i, ctx), debit);
  },
  settlement: (out) => ({
    kind: 'conversion',
    id: out.conversionId,
    status: out.status,
    outcome: settlementOutcome(out.status),
  }),
  settle: async (sent, ctx) => {
    const conversion = await ctx.client.conversions.get({ conversionId: sent.id }, readOptions(ctx));
    return { status: conversion.status, outcome: settlementOutcome(conversion.status) };
  },
  run: async (i, ctx) => {
    const q = FxQuoteSchema.parse(
      await beforeSending('the fresh quote', () => ctx.once('quote', () => quote(i, ctx))),
    );
    checkApprovedBound(ctx, { debit: debitOf(q), receive: receiveOf(q) }, () => previewOf(q));
    ctx.progress(`executing the conversion on quote ${q.quoteId}`);
    const conversion = await ctx.client.conversions.create(
      {
        companyCode: companyOf(i, ctx),
        quoteId: q.quoteId,
        ...optional('clientReference', i.clientReference),
      },
      writeOptions(ctx),
    );
    return {
      conversionId: conversion.conversionId,
      externalReference: conversion.externalReference,
      status: conversion.status,
      quote: q,
    };
  },
});
