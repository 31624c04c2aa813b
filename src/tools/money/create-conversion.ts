import { z } from 'zod';
import { type FxQuote, FxQuoteSchema } from '../../core/client/schemas/conversions.js';
import { formatAmount } from '../../core/money.js';
import { defineTool, type Preview, type ToolContext } from '../../core/tool.js';
import { amountField, companyCodeField, currencyCode, sideField } from '../banking/fields.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { checkApprovedBound } from './bound-check.js';

const input = z.object({
  sourceAssetCode: currencyCode.describe('Currency to sell (debited), e.g. USD.'),
  targetAssetCode: currencyCode.describe('Currency to buy (credited), e.g. EUR.'),
  amount: amountField,
  side: sideField,
  clientReference: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Your own reference, returned as externalReference.'),
  companyCode: companyCodeField,
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

function previewOf(q: FxQuote): Preview {
  return {
    summary:
      `Convert ${formatAmount(debitOf(q))} to ${formatAmount({ amount: q.targetAmount, currency: q.targetAssetCode })} ` +
      `at ${q.rate} ${q.currencyPair}`,
    details: q,
    bound: debitOf(q),
    receive: receiveOf(q),
  };
}

export const createConversion = defineTool({
  name: 'create_conversion',
  title: 'Convert currency',
  description:
    "Converts between two of the company's currencies. Needs approval: the money moves only after approvers accept. They see a quote (expires in ~75 s); at execution a fresh quote is taken and used only if the amount sold is within the approved bound, else it goes back to them.",
  toolset: 'banking',
  input,
  output,
  // Executed at a rate that cannot be undone without a second conversion at another rate.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  // For the policy's thresholds: the amount in the currency `side` names (see create_payout).
  money: (i) => ({ amount: i.amount, currency: i.side === 'SOURCE' ? i.sourceAssetCode : i.targetAssetCode }),
  preview: async (i, ctx) => previewOf(await quote(i, ctx)),
  run: async (i, ctx) => {
    const q = FxQuoteSchema.parse(await ctx.once('quote', () => quote(i, ctx)));
    checkApprovedBound(ctx, { debit: debitOf(q), receive: receiveOf(q) }, () => previewOf(q));
    ctx.progress(`executing the conversion on quote ${q.quoteId}`);
    const conversion = await ctx.client.conversions.create(
      {
        companyCode: i.companyCode ?? ctx.defaults.companyCode,
        quoteId: q.quoteId,
        ...(i.clientReference === undefined ? {} : { clientReference: i.clientReference }),
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
