import { z } from 'zod';
import { PayoutQuoteSchema, PurposeCodeSchema } from '../../core/client/schemas/payouts.js';
import { idString } from '../shared/ids.js';
import { amountFitsCurrency } from './balance.js';
import {
  accountIdField,
  amountField,
  clientReferenceField,
  companyCodeField,
  currencyCode,
  sideField,
} from './fields.js';
import { payoutMovement } from './payouts.js';
import { createTool } from './quoted-movement.js';

/** The currency `amount` is in: the funding currency with SOURCE, the payee's with TARGET. */
function amountCurrency(i: {
  side: string;
  sourceAssetCode: string;
  destinationAssetCode?: string | undefined;
}) {
  return i.side === 'SOURCE' ? i.sourceAssetCode : i.destinationAssetCode;
}

const input = z
  .object({
    beneficiaryId: idString().describe('Payee id, from create_beneficiary.'),
    sourceAccountId: accountIdField.describe('Funding account id, from list_accounts.'),
    sourceAssetCode: currencyCode.describe('Currency of the funding account.'),
    destinationAssetCode: currencyCode
      .optional()
      .describe("Currency received; the beneficiary's by default. Required with side TARGET."),
    destinationRail: z.string().trim().min(1).describe('Rail, e.g. SWIFT, ACH, FEDWIRE, LOCAL.'),
    amount: amountField,
    side: sideField,
    purposeCode: PurposeCodeSchema.describe('Why the money is sent.'),
    reference: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe("Payment reference shown in the payee's bank records."),
    clientReference: clientReferenceField,
    companyCode: companyCodeField,
  })
  .superRefine((value, ctx) => {
    // The policy's thresholds need the currency the amount is in; with TARGET that is the payee's.
    if (value.side === 'TARGET' && value.destinationAssetCode === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['destinationAssetCode'],
        message: 'is required when side is TARGET (the amount is in this currency)',
      });
    }
    amountFitsCurrency(amountCurrency)(value, ctx);
  });

export const createPayout = createTool(
  {
    name: 'create_payout',
    title: 'Send a payout',
    description:
      'Pays a registered beneficiary from a funding account, only after approvers accept its quote (valid 75 s). At execution a fresh quote is used only if its total debit is within the approved bound, else it goes back to them.',
    input,
    money: (i) => ({ amount: i.amount, currency: amountCurrency(i) ?? '' }),
    payee: (i) => i.beneficiaryId,
    sourceAccount: (i) => i.sourceAccountId,
  },
  payoutMovement,
  {
    key: 'payoutId',
    text: 'Payout id, for get_payout.',
    status: 'PENDING right after creation.',
    quote: PayoutQuoteSchema,
  },
);
