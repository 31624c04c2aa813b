import { z } from 'zod';
import type { PreviewFacts } from '../../core/approvals/view-schema.js';
import {
  type Payout,
  type PayoutQuote,
  PayoutQuoteSchema,
  PayoutSchema,
  type PurposeCode,
} from '../../core/client/schemas/payouts.js';
import { formatAmount } from '../../core/money.js';
import { optional } from '../../core/optional.js';
import { payeeHistory } from '../../core/payee-facts.js';
import type { ToolContext } from '../../core/tool.js';
import { idString } from '../shared/ids.js';
import type { BalanceFacts } from './balance.js';
import { accountIdField, amountField, companyCodeField, currencyCode, sideField } from './fields.js';
import { type QuotedMovement, quoteTool, serviceCalls, statusTool } from './quoted-movement.js';

/** What a payout quote needs (quote_payout's input; create_payout's, less its own fields). */
export interface PayoutQuoteInput {
  companyCode?: string | undefined;
  beneficiaryId: string;
  destinationRail: string;
  sourceAccountId: string;
  sourceAssetCode: string;
  destinationAssetCode?: string | undefined;
  amount: number;
  side: 'SOURCE' | 'TARGET';
}

/** What create_payout adds to the quote's input. */
export interface PayoutInput extends PayoutQuoteInput {
  purposeCode: PurposeCode;
  reference?: string | undefined;
  clientReference?: string | undefined;
}

const debitOf = (q: PayoutQuote) => ({ amount: q.totalDebitAmount, currency: q.sourceAssetCode });
const receiveOf = (q: PayoutQuote) => ({ amount: q.destinationAmount, currency: q.destinationAssetCode });
const feesOf = (q: PayoutQuote) => ({
  amount: [q.processingFee, q.networkFee, q.platformFee].reduce<number>((sum, fee) => sum + (fee ?? 0), 0),
  currency: q.feeAssetCode ?? q.sourceAssetCode,
});

/** The payee as bankops knows it: by name when bankops created it, else only its id. */
async function payeeOf(id: string, ctx: ToolContext) {
  const directory = ctx.payees;
  if (directory === undefined) return { id, known: false as boolean, name: undefined };
  const [known, history] = await Promise.all([directory.get(id), payeeHistory(directory, id)]);
  if (known === undefined) return { id, known: false, name: undefined, history };
  const { country, currency, rail, accountMasked, name } = known;
  return {
    id,
    known: true,
    ...optional('name', name),
    ...optional('country', country),
    ...optional('currency', currency),
    ...optional('rail', rail),
    ...optional('accountMasked', accountMasked),
    history,
  };
}

async function previewOf(input: PayoutInput, q: PayoutQuote, ctx: ToolContext, balance?: BalanceFacts) {
  const payee = await payeeOf(input.beneficiaryId, ctx);
  const facts: PreviewFacts = {
    kind: 'payout',
    payee,
    sourceAccountId: input.sourceAccountId,
    send: { amount: q.sourceAmount, currency: q.sourceAssetCode },
    receive: receiveOf(q),
    ...(q.fxRate === undefined || q.fxRate === null ? {} : { rate: q.fxRate }),
    fees: feesOf(q),
    totalDebit: debitOf(q),
    ...optional('balance', balance),
    purpose: input.purposeCode,
    ...optional('reference', input.reference),
  };
  const to = payee.name === undefined ? input.beneficiaryId : `${payee.name} (${input.beneficiaryId})`;
  return {
    summary:
      `Pay ${formatAmount(receiveOf(q))} to ${to} via ${input.destinationRail} from ${input.sourceAccountId}: ` +
      `${formatAmount(facts.send)} + fees ${formatAmount(facts.fees)}, total debit ${formatAmount(debitOf(q))} ` +
      `(purpose ${input.purposeCode})`,
    facts,
    details: q,
    bound: debitOf(q),
    receive: receiveOf(q),
  };
}

/** A payout: quoted for a payee and a funding account, sent on the quote, followed by its id. */
export const payoutMovement: QuotedMovement<PayoutQuoteInput, PayoutQuote, PayoutInput, Payout> = {
  kind: 'payout',
  quoteSchema: PayoutQuoteSchema,
  debit: debitOf,
  receive: receiveOf,
  preview: previewOf,
  ...serviceCalls({
    idKey: 'payoutId',
    api: (ctx) => ctx.client.payouts,
    quoteRequest: (input: PayoutQuoteInput, companyCode) => ({
      companyCode,
      beneficiaryId: input.beneficiaryId,
      destinationRail: input.destinationRail,
      sourceAccountId: input.sourceAccountId,
      sourceAssetCode: input.sourceAssetCode,
      ...optional('destinationAssetCode', input.destinationAssetCode),
      amount: input.amount,
      side: input.side,
    }),
    request: (input: PayoutInput, q: PayoutQuote, companyCode) => ({
      companyCode,
      quoteId: q.quoteId,
      purposeCode: input.purposeCode,
      ...optional('reference', input.reference),
      ...optional('clientReference', input.clientReference),
    }),
    progress: (q) => `sending the payout on quote ${q.quoteId} (total debit ${formatAmount(debitOf(q))})`,
  }),
  // The payee's history: what was paid to it, once per request id (a re-send is the same payout).
  sent: async (input, q, ctx) => {
    await ctx.payees?.notePayout({
      beneficiaryId: input.beneficiaryId,
      requestId: ctx.requestId,
      ...receiveOf(q),
      at: (ctx.now?.() ?? new Date()).toISOString(),
    });
  },
};

export const quotePayout = quoteTool(
  {
    name: 'quote_payout',
    title: 'Quote a payout',
    description:
      'Quotes paying a registered beneficiary from a funding account: amounts, FX rate, fees, totalDebitAmount. Moves no money; expires about 75 s after creation. To pay, use create_payout.',
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
  },
  payoutMovement.quote,
);

export const getPayout = statusTool(
  {
    name: 'get_payout',
    title: 'Get payout status',
    description:
      "Shows a payout's status (PENDING at first, later e.g. PROCESSING, COMPLETED or FAILED) and external reference.",
    output: PayoutSchema,
  },
  { key: 'payoutId', text: 'From create_payout.' },
  payoutMovement.get,
);
