import { z } from 'zod';
import type { PreviewFacts } from '../../core/approvals/view-schema.js';
import {
  type Conversion,
  ConversionSchema,
  type FxQuote,
  FxQuoteSchema,
} from '../../core/client/schemas/conversions.js';
import { formatAmount } from '../../core/money.js';
import { optional } from '../../core/optional.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { idString } from '../shared/ids.js';
import type { BalanceFacts } from './balance.js';
import { amountField, companyCodeField, currencyCode, sideField } from './fields.js';
import type { QuotedMovement } from './quoted-movement.js';

/** What a conversion quote needs (quote_conversion's input; create_conversion's, less its reference). */
export interface ConversionQuoteInput {
  companyCode?: string | undefined;
  sourceAssetCode: string;
  targetAssetCode: string;
  amount: number;
  side: 'SOURCE' | 'TARGET';
}

export interface ConversionInput extends ConversionQuoteInput {
  clientReference?: string | undefined;
}

// The spread is in the rate; fees in another currency than the source would not be in this bound,
// and the spec shows none (the sandbox quotes 0 and no fee currency).
const debitOf = (q: FxQuote) => ({ amount: q.sourceAmount, currency: q.sourceAssetCode });
const receiveOf = (q: FxQuote) => ({ amount: q.targetAmount, currency: q.targetAssetCode });

function previewOf(_input: ConversionInput, q: FxQuote, _ctx: unknown, balance?: BalanceFacts) {
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

/** A conversion between two of the company's currencies: quoted, executed on the quote, followed by its id. */
export const conversionMovement: QuotedMovement<ConversionQuoteInput, FxQuote, ConversionInput, Conversion> =
  {
    kind: 'conversion',
    quoteSchema: FxQuoteSchema,
    // No request id: a repeat must give a fresh quote, not replay an expired one.
    quote: (input, ctx) =>
      ctx.client.conversions.quote(
        {
          companyCode: input.companyCode ?? ctx.defaults.companyCode,
          direction: 'FX_CONVERT',
          sourceAssetCode: input.sourceAssetCode,
          targetAssetCode: input.targetAssetCode,
          amount: input.amount,
          side: input.side,
        },
        readOptions(ctx),
      ),
    debit: debitOf,
    receive: receiveOf,
    preview: previewOf,
    create: async (input, q, ctx) => {
      ctx.progress(`executing the conversion on quote ${q.quoteId}`);
      const conversion = await ctx.client.conversions.create(
        {
          companyCode: input.companyCode ?? ctx.defaults.companyCode,
          quoteId: q.quoteId,
          ...optional('clientReference', input.clientReference),
        },
        writeOptions(ctx),
      );
      return { ...conversion, id: conversion.conversionId };
    },
    get: (conversionId, ctx) => ctx.client.conversions.get({ conversionId }, readOptions(ctx)),
  };

export const quoteConversion = defineTool({
  name: 'quote_conversion',
  title: 'Quote a currency conversion',
  description:
    "Quotes converting between two of the company's currencies: rate, amounts, fees. Moves no money; expires about 75 s after creation. To convert, use create_conversion.",
  toolset: 'banking',
  input: z.object({
    companyCode: companyCodeField,
    sourceAssetCode: currencyCode.describe('Currency sold (debited).'),
    targetAssetCode: currencyCode.describe('Currency bought (credited).'),
    amount: amountField,
    side: sideField,
  }),
  output: FxQuoteSchema,
  // Not strictly a read (the service stores a quote), but it moves and commits to nothing; each
  // call gives a new quote, hence not idempotent.
  hints: { readOnly: true, destructive: false, idempotent: false, openWorld: true },
  run: (input, ctx) => conversionMovement.quote(input, ctx),
});

export const getConversion = defineTool({
  name: 'get_conversion',
  title: 'Get conversion status',
  description:
    "Shows a conversion's status (EXECUTING at first, later e.g. COMPLETED) and external reference.",
  toolset: 'banking',
  input: z.object({
    conversionId: idString().describe('From create_conversion.'),
  }),
  output: ConversionSchema,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  run: (input, ctx) => ctx.client.conversions.get({ conversionId: input.conversionId }, readOptions(ctx)),
});
