import { z } from 'zod';
import type { PreviewFacts } from '../../core/approvals/view-schema.js';
import { type PayoutQuote, PayoutQuoteSchema, PurposeCodeSchema } from '../../core/client/schemas/payouts.js';
import { formatAmount } from '../../core/money.js';
import { optional } from '../../core/optional.js';
import { defineTool, type Preview, type ToolContext } from '../../core/tool.js';
import { accountIdField, amountField, companyCodeField, currencyCode, sideField } from '../banking/fields.js';
import { beforeSending } from '../shared/before-sending.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { idString } from '../shared/ids.js';
import { type BalanceFacts, companyBalance, minorUnitsIssue, settlementOutcome } from './balance.js';
import { checkApprovedBound } from './bound-check.js';

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
    clientReference: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('Your own reference, returned as externalReference.'),
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
    const issue = minorUnitsIssue(value.amount, amountCurrency(value));
    if (issue !== undefined) ctx.addIssue(issue);
  });
type Input = z.infer<typeof input>;

const output = z.object({
  payoutId: z.string().describe('Payout id, for get_payout.'),
  externalReference: z.string().nullish().describe('clientReference, or a reference the service generated.'),
  status: z.string().describe('PENDING right after creation.'),
  quote: PayoutQuoteSchema.describe('The quote the payout was executed on (taken at execution).'),
});

function quote(input: Input, ctx: ToolContext): Promise<PayoutQuote> {
  return ctx.client.payouts.quote(
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
  );
}

/** The currency `amount` is in: the funding currency with SOURCE, the payee's with TARGET. */
function amountCurrency(i: {
  side: string;
  sourceAssetCode: string;
  destinationAssetCode?: string | undefined;
}) {
  return i.side === 'SOURCE' ? i.sourceAssetCode : i.destinationAssetCode;
}

const debitOf = (q: PayoutQuote) => ({ amount: q.totalDebitAmount, currency: q.sourceAssetCode });
const receiveOf = (q: PayoutQuote) => ({ amount: q.destinationAmount, currency: q.destinationAssetCode });
const feesOf = (q: PayoutQuote) => ({
  amount: [q.processingFee, q.networkFee, q.platformFee].reduce<number>((sum, fee) => sum + (fee ?? 0), 0),
  currency: q.feeAssetCode ?? q.sourceAssetCode,
});

/** The payee as bankops knows it: by name when bankops created it, else only its id. */
function payeeOf(id: string, ctx: ToolContext) {
  const known = ctx.payees?.get(id);
  if (known === undefined) return { id, known: false };
  const { id: _id, entityType: _type, ...rest } = known;
  return { id, known: true, ...rest };
}

function previewOf(input: Input, q: PayoutQuote, ctx: ToolContext, balance?: BalanceFacts): Preview {
  const payee = payeeOf(input.beneficiaryId, ctx);
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

const companyOf = (i: Input, ctx: ToolContext) => i.companyCode ?? ctx.defaults.companyCode;

export const createPayout = defineTool({
  name: 'create_payout',
  title: 'Send a payout',
  description:
    'Pays a registered beneficiary from a funding account, only after approvers accept its quote (valid 75 s). At execution a fresh quote is used only if its total debit is within the approved bound, else it goes back to them.',
  toolset: 'banking',
  input,
  output,
  // Money that has left cannot be called back: destructive, so MCP clients confirm first.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  // For the policy's thresholds: the amount in the currency `side` names (SOURCE: the funding
  // currency, TARGET: the payee's). The thresholds are per currency, so no FX rate is needed.
  money: (i) => ({ amount: i.amount, currency: amountCurrency(i) ?? '' }),
  preview: async (i, ctx) => {
    const q = await quote(i, ctx);
    // Refused here, before anyone is asked, when the balance cannot cover the total debit.
    return previewOf(i, q, ctx, await companyBalance(ctx, companyOf(i, ctx), debitOf(q)));
  },
  check: async (i, ctx, approval) => {
    const debit = approval.bound?.quoted;
    if (debit !== undefined) await companyBalance(ctx, companyOf(i, ctx), debit);
  },
  settlement: (out) => ({
    kind: 'payout',
    id: out.payoutId,
    status: out.status,
    outcome: settlementOutcome(out.status),
  }),
  settle: async (sent, ctx) => {
    const payout = await ctx.client.payouts.get({ payoutId: sent.id }, readOptions(ctx));
    return { status: payout.status, outcome: settlementOutcome(payout.status) };
  },
  run: async (i, ctx) => {
    // Checkpointed: a re-execution after a crash re-sends this quote with the same request id.
    const q = PayoutQuoteSchema.parse(
      await beforeSending('the fresh quote', () => ctx.once('quote', () => quote(i, ctx))),
    );
    checkApprovedBound(ctx, { debit: debitOf(q), receive: receiveOf(q) }, () => previewOf(i, q, ctx));
    ctx.progress(`sending the payout on quote ${q.quoteId} (total debit ${formatAmount(debitOf(q))})`);
    const payout = await ctx.client.payouts.create(
      {
        companyCode: companyOf(i, ctx),
        quoteId: q.quoteId,
        purposeCode: i.purposeCode,
        ...optional('reference', i.reference),
        ...optional('clientReference', i.clientReference),
      },
      writeOptions(ctx),
    );
    return {
      payoutId: payout.payoutId,
      externalReference: payout.externalReference,
      status: payout.status,
      quote: q,
    };
  },
});
