import { z } from 'zod';
import { PayoutQuoteSchema, PayoutSchema } from '../../core/client/schemas/payouts.js';
import { defineTool } from '../../core/tool.js';
import { readOptions } from '../shared/call-options.js';
import { idString } from '../shared/ids.js';
import { accountIdField, amountField, companyCodeField, currencyCode, sideField } from './fields.js';

export const quotePayout = defineTool({
  name: 'quote_payout',
  title: 'Quote a payout',
  description:
    'Gets a quote for paying a registered beneficiary from a funding account: amounts (decimal), FX rate, fees and totalDebitAmount in the funding currency. Moves no money; the quote expires about 75 seconds after creation (expiresAt). To pay, use create_payout.',
  toolset: 'banking',
  input: z.object({
    companyCode: companyCodeField,
    beneficiaryId: idString().describe('Payee id from create_beneficiary.'),
    destinationRail: z
      .string()
      .min(1)
      .describe('Rail that delivers the payout, e.g. SWIFT, ACH, FEDWIRE, LOCAL.'),
    sourceAccountId: accountIdField.describe('Funding account id, from list_accounts.'),
    sourceAssetCode: currencyCode.describe('Currency of the funding account, e.g. USD.'),
    destinationAssetCode: currencyCode
      .optional()
      .describe("Currency the payee receives; defaults to the beneficiary's currency."),
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
        ...(input.destinationAssetCode === undefined
          ? {}
          : { destinationAssetCode: input.destinationAssetCode }),
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
    'Shows the status and external reference of a payout (PENDING right after creation, later e.g. PROCESSING, COMPLETED or FAILED).',
  toolset: 'banking',
  input: z.object({
    payoutId: idString().describe('Payout id returned by create_payout.'),
  }),
  output: PayoutSchema,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  run: (input, ctx) => ctx.client.payouts.get({ payoutId: input.payoutId }, readOptions(ctx)),
});
