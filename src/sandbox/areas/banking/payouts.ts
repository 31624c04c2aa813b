import { z } from 'zod';
import { invalid, unknownResource } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { isoUtcMs, parseInput } from '../../validate.js';
import {
  checkCompanyCode,
  currencyCode,
  oneOf,
  optionalString,
  positiveAmount,
  requiredString,
  SIDES,
} from './fields.js';
import { adjust, requireAvailable } from './ledger.js';
import { clientRate, roundTo, toMinor } from './money.js';
import { PURPOSE_CODES } from './purpose-codes.js';
import { QUOTE_VALIDITY_MS, usableQuote } from './quotes.js';
import type { BankingState, Payout, PayoutQuote } from './state.js';

const PREFIX = '/svc/banking/api/v1/payouts';

/** Rails a payout quote accepts (case-insensitive); the spec gives `SWIFT` as its example. */
const RAILS = ['SWIFT', 'LOCAL', 'ACH', 'FEDWIRE', 'SEPA', 'FPS'] as const;

/** Sandbox fee schedule, in the funding currency (the spec leaves fees open). */
const SWIFT_FEES = { processingFee: 15, networkFee: 10 };
const LOCAL_FEES = { processingFee: 1, networkFee: null };
const PLATFORM_FEE_RATE = 0.001;

/** The beneficiary's bank rejects payouts to account numbers ending in 0000 (a test hook). */
const FAILING_ACCOUNT_SUFFIX = '0000';

const QuoteBody = z.looseObject({
  companyCode: requiredString(),
  beneficiaryId: requiredString(),
  destinationRail: requiredString()
    .transform((v) => v.toUpperCase())
    .pipe(oneOf(RAILS)),
  sourceAssetCode: currencyCode(),
  destinationAssetCode: currencyCode().optional(),
  sourceAccountId: requiredString(),
  amount: positiveAmount(),
  side: oneOf(SIDES),
});

const CreateBody = z.looseObject({
  companyCode: requiredString(),
  quoteId: requiredString(),
  purposeCode: oneOf(PURPOSE_CODES),
  reference: optionalString(),
  clientReference: optionalString(),
});

const view = (p: Payout) => ({
  payoutId: p.payoutId,
  externalReference: p.externalReference,
  status: p.status,
});

function quoteView(q: PayoutQuote) {
  return {
    quoteId: q.quoteId,
    sourceAssetCode: q.sourceAssetCode,
    destinationAssetCode: q.destinationAssetCode,
    sourceAmount: q.sourceAmount,
    destinationAmount: q.destinationAmount,
    fxRate: q.fxRate,
    processingFee: q.processingFee,
    networkFee: q.networkFee,
    feeAssetCode: q.sourceAssetCode,
    platformFee: q.platformFee,
    totalDebitAmount: q.totalDebitAmount,
    expiresAt: isoUtcMs(new Date(q.expiresAtMs)),
  };
}

/** POST /payouts/quote, POST /payouts, GET /payouts/{id} (HB). */
export function payoutRoutes(ctx: SandboxContext, state: () => BankingState): RouteDef[] {
  const base = { envelope: 'banking', headers: 'HB' } as const;
  return [
    {
      ...base,
      operation: 'payouts.quote',
      method: 'POST',
      path: `${PREFIX}/quote`,
      successCode: 200,
      handler: (req) => {
        const body = parseInput(QuoteBody, req.body);
        checkCompanyCode(ctx, body.companyCode);
        const s = state();
        const beneficiary = s.beneficiaries.get(body.beneficiaryId);
        if (beneficiary === undefined) throw unknownResource('beneficiary', body.beneficiaryId);
        const account = s.accounts.find((a) => a.accountId === body.sourceAccountId);
        if (account === undefined) throw unknownResource('account', body.sourceAccountId);
        const source = body.sourceAssetCode;
        if (account.currency !== source) {
          throw invalid(
            `sourceAssetCode: must be ${account.currency}, the currency of sourceAccountId '${account.accountId}'`,
          );
        }
        const destination = body.destinationAssetCode ?? beneficiary.currency;
        if (destination !== beneficiary.currency) {
          throw invalid(
            `destinationAssetCode: must be ${beneficiary.currency}, the currency of beneficiary '${beneficiary.beneficiaryId}'`,
          );
        }

        const fxRate = clientRate(s.usdPerUnit, source, destination);
        const sourceAmount = roundTo(body.side === 'SOURCE' ? body.amount : body.amount / fxRate, source);
        const destinationAmount = roundTo(
          body.side === 'SOURCE' ? sourceAmount * fxRate : body.amount,
          destination,
        );
        if (sourceAmount <= 0 || destinationAmount <= 0) throw invalid('amount: too small to pay out');
        const fees = body.destinationRail === 'SWIFT' ? SWIFT_FEES : LOCAL_FEES;
        const platformFee = roundTo(sourceAmount * PLATFORM_FEE_RATE, source);
        const totalDebitAmount = roundTo(
          sourceAmount + fees.processingFee + (fees.networkFee ?? 0) + platformFee,
          source,
        );
        const nowMs = ctx.clock.nowMs();
        const quote: PayoutQuote = {
          quoteId: ctx.newId('poq'),
          beneficiaryId: beneficiary.beneficiaryId,
          destinationRail: body.destinationRail,
          sourceAccountId: account.accountId,
          sourceAssetCode: source,
          destinationAssetCode: destination,
          sourceAmount,
          destinationAmount,
          fxRate,
          processingFee: fees.processingFee,
          networkFee: fees.networkFee,
          platformFee,
          totalDebitAmount,
          createdAtMs: nowMs,
          expiresAtMs: nowMs + QUOTE_VALIDITY_MS,
          usedBy: null,
        };
        s.payoutQuotes.set(quote.quoteId, quote);
        return { data: quoteView(quote) };
      },
    },
    {
      ...base,
      operation: 'payouts.create',
      method: 'POST',
      path: PREFIX,
      successCode: 202,
      idempotent: true,
      handler: (req) => {
        const body = parseInput(CreateBody, req.body);
        checkCompanyCode(ctx, body.companyCode);
        const s = state();
        const nowMs = ctx.clock.nowMs();
        const quote = usableQuote(s.payoutQuotes, s.fxQuotes, body.quoteId, nowMs, {
          name: 'a payout quote',
          otherName: 'an FX quote',
          endpoint: `POST ${PREFIX}/quote`,
        });
        const currency = quote.sourceAssetCode;
        const debitMinor = toMinor(quote.totalDebitAmount, currency);
        requireAvailable(s, currency, debitMinor);

        const beneficiary = s.beneficiaries.get(quote.beneficiaryId);
        const payout: Payout = {
          payoutId: ctx.newId('po'),
          externalReference: body.clientReference ?? ctx.newId('ref'),
          status: 'PENDING',
          quoteId: quote.quoteId,
          purposeCode: body.purposeCode,
          reference: body.reference ?? null,
          createdAtMs: nowMs,
          willFail: beneficiary?.accountNumber?.endsWith(FAILING_ACCOUNT_SUFFIX) ?? false,
          fundingCurrency: currency,
          debitMinor,
        };
        quote.usedBy = payout.payoutId;
        // Held as frozen until the payout settles (settle.ts), so a failure can return it.
        adjust(s, currency, { available: -debitMinor, frozen: debitMinor }, nowMs);
        s.payouts.set(payout.payoutId, payout);
        return { data: view(payout) };
      },
    },
    {
      ...base,
      operation: 'payouts.get',
      method: 'GET',
      path: `${PREFIX}/:payoutId`,
      successCode: 200,
      handler: (req) => {
        const id = req.params.payoutId ?? '';
        const payout = state().payouts.get(id);
        if (payout === undefined) throw unknownResource('payout', id);
        return { data: view(payout) };
      },
    },
  ];
}
