import { z } from 'zod';
import { PayoutQuoteSchema, PayoutSchema } from '../../core/client/schemas/payouts.js';
import { optional } from '../../core/optional.js';
import { defineTool } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { idString } from '../shared/ids.js';
import { accountIdField, amountField, companyCodeField, currencyCode, sideField } from './fields.js';

export const quotePayout = defineTool({
  name: 'quote_payout',
  title: 'Quote a payout',
  description:
    'Quotes paying a registered beneficiary from a funding account: amounts, FX rate, fees, totalDebitAmount. Moves no money; expires about 75 s after creation. To pay, use create_payout.',
  toolset: 'banking',
  input: z.object({
    companyCode: companyCodeField,
    beneficiaryId: idString().describe('Payee id, from create_beneficiary.'),
    destinationRail: z.string().min(1).describe('Rail, e.g. SWIFT, ACH, FEDWIRE, LOCAL.'),
    sourceAccountId: accountIdField.describe('Funding account id, from list_accounts.'),
    sourceAssetCode: currencyCode.describe('Currency of the funding account.'),
    destinationAssetCode: currencyCode
      .optional()
      .describe("Currency received; the beneficiary's by default."),
    amount: amountField,
    side: sideField,
  }),
  output: PayoutQuoteSchema,
  // Like quote_conversion: stores a quote but moves nothing; every call is a new quote.
  hints: { readOnly: true, destructive: false, idempotent: false, openWorld: true },
  run: (input, ctx) =>
    ctx.client.payouts.quote(
      {
        companyCode: input.companyCode ?? ctx.defaults.companyCode,
        beneficiaryId: input.beneficiaryId,
        destinationRail: input.destinationRail,
        sourceAccountId: input.sourceAccountId,
        sourceAssetCode: input.sourceAssetCode,
        ...optional('destinationAssetCode', input.destinationAssetCode),
        amount: input.amount,
        side: input.side,
      },
      readOptions(ctx),
    ),
});

export const getPayout = defineTool({
  name: 'get_payout',
  title: 'Get payout status',
  description:
    "Shows a payout's status (PENDING at first, later e.g. PROCESSING, COMPLETED or FAILED) and external reference.",
  toolset: 'banking',
  input: z.object({
    payoutId: idString().describe('From create_payout.'),
  }),
  output: PayoutSchema,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  run: (input, ctx) => ctx.client.payouts.get({ payoutId: input.payoutId }, readOptions(ctx)),
});
