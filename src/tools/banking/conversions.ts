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
import type { BalanceFacts } from './balance.js';
import { amountField, companyCodeField, currencyCode, sideField } from './fields.js';
import { type QuotedMovement, quoteTool, serviceCalls, statusTool } from './quoted-movement.js';

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

async function previewOf(_input: ConversionInput, q: FxQuote, _ctx: unknown, balance?: BalanceFacts) {
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
    debit: debitOf,
    receive: receiveOf,
    preview: previewOf,
    ...serviceCalls({
      idKey: 'conversionId',
      api: (ctx) => ctx.client.conversions,
      quoteRequest: (input: ConversionQuoteInput, companyCode) => ({
        companyCode,
        direction: 'FX_CONVERT' as const,
        sourceAssetCode: input.sourceAssetCode,
        targetAssetCode: input.targetAssetCode,
        amount: input.amount,
        side: input.side,
      }),
      request: (input: ConversionInput, q: FxQuote, companyCode) => ({
        companyCode,
        quoteId: q.quoteId,
        ...optional('clientReference', input.clientReference),
      }),
      progress: (q) => `executing the conversion on quote ${q.quoteId}`,
    }),
  };

export const quoteConversion = quoteTool(
  {
    name: 'quote_conversion',
    title: 'Quote a currency conversion',
    description:
      "Quotes converting between two of the company's currencies: rate, amounts, fees. Moves no money; expires about 75 s after creation. To convert, use create_conversion.",
    input: z.object({
      companyCode: companyCodeField,
      sourceAssetCode: currencyCode.describe('Currency sold (debited).'),
      targetAssetCode: currencyCode.describe('Currency bought (credited).'),
      amount: amountField,
      side: sideField,
    }),
    output: FxQuoteSchema,
  },
  conversionMovement.quote,
);

export const getConversion = statusTool(
  {
    name: 'get_conversion',
    title: 'Get conversion status',
    description:
      "Shows a conversion's status (EXECUTING at first, later e.g. COMPLETED) and external reference.",
    output: ConversionSchema,
  },
  { key: 'conversionId', text: 'From create_conversion.' },
  conversionMovement.get,
);
