import { z } from 'zod';
import { ConversionSchema, FxQuoteSchema } from '../../core/client/schemas/conversions.js';
import { defineTool } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { idString } from '../shared/ids.js';
import { amountField, companyCodeField, currencyCode, sideField } from './fields.js';

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
  // No request id: a repeat must give a fresh quote, not replay an expired one.
  run: (input, ctx) =>
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
