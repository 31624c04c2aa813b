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
import { clientRate, inverseOf, roundTo, toMinor } from './money.js';
import { QUOTE_VALIDITY_MS, usableQuote } from './quotes.js';
import type { BankingState, Conversion } from './state.js';

const PREFIX = '/svc/banking/api/v1/conversions';

const QuoteBody = z
  .looseObject({
    companyCode: requiredString(),
    direction: oneOf(['FX_CONVERT']),
    sourceAssetCode: currencyCode(),
    targetAssetCode: currencyCode(),
    amount: positiveAmount(),
    side: oneOf(SIDES),
  })
  .refine((b) => b.sourceAssetCode !== b.targetAssetCode, {
    error: 'must differ from sourceAssetCode',
    path: ['targetAssetCode'],
  });

const CreateBody = z.looseObject({
  companyCode: requiredString(),
  quoteId: requiredString(),
  clientReference: optionalString(),
});

const view = (c: Conversion) => ({
  conversionId: c.conversionId,
  externalReference: c.externalReference,
  status: c.status,
});

/** POST /conversions/quote, POST /conversions, GET /conversions/{id} (HB). */
export function conversionRoutes(ctx: SandboxContext, state: () => BankingState): RouteDef[] {
  const base = { envelope: 'banking', headers: 'HB' } as const;
  return [
    {
      ...base,
      operation: 'conversions.quote',
      method: 'POST',
      path: `${PREFIX}/quote`,
      successCode: 200,
      handler: (req) => {
        const body = parseInput(QuoteBody, req.body);
        checkCompanyCode(ctx, body.companyCode);
        const source = body.sourceAssetCode;
        const target = body.targetAssetCode;
        const rate = clientRate(state().usdPerUnit, source, target);
        const sourceAmount = roundTo(body.side === 'SOURCE' ? body.amount : body.amount / rate, source);
        const targetAmount = roundTo(body.side === 'SOURCE' ? sourceAmount * rate : body.amount, target);
        if (sourceAmount <= 0 || targetAmount <= 0) {
          throw invalid(`amount: too small to convert ${source} to ${target}`);
        }
        const nowMs = ctx.clock.nowMs();
        const quote = {
          quoteId: ctx.newId('fxq'),
          sourceAssetCode: source,
          targetAssetCode: target,
          sourceAmount,
          targetAmount,
          rate,
          inverseRate: inverseOf(rate),
          createdAtMs: nowMs,
          expiresAtMs: nowMs + QUOTE_VALIDITY_MS,
          usedBy: null,
        };
        state().fxQuotes.set(quote.quoteId, quote);
        return {
          data: {
            quoteId: quote.quoteId,
            direction: 'FX_CONVERT',
            sourceAssetCode: source,
            targetAssetCode: target,
            sourceAmount,
            targetAmount,
            rate,
            inverseRate: quote.inverseRate,
            currencyPair: `${source}${target}`,
            processingFee: 0,
            networkFee: 0,
            feeAssetCode: null,
            expiresAt: isoUtcMs(new Date(quote.expiresAtMs)),
          },
        };
      },
    },
    {
      ...base,
      operation: 'conversions.create',
      method: 'POST',
      path: PREFIX,
      successCode: 202,
      idempotent: true,
      handler: (req) => {
        const body = parseInput(CreateBody, req.body);
        checkCompanyCode(ctx, body.companyCode);
        const s = state();
        const nowMs = ctx.clock.nowMs();
        const quote = usableQuote(s.fxQuotes, s.payoutQuotes, body.quoteId, nowMs, {
          name: 'an FX quote',
          otherName: 'a payout quote',
          endpoint: `POST ${PREFIX}/quote`,
        });
        const debit = toMinor(quote.sourceAmount, quote.sourceAssetCode);
        requireAvailable(s, quote.sourceAssetCode, debit);

        const conversion: Conversion = {
          conversionId: ctx.newId('cnv'),
          externalReference: body.clientReference ?? ctx.newId('ref'),
          status: 'EXECUTING',
          quoteId: quote.quoteId,
          createdAtMs: nowMs,
        };
        quote.usedBy = conversion.conversionId;
        adjust(s, quote.sourceAssetCode, { available: -debit }, nowMs);
        adjust(
          s,
          quote.targetAssetCode,
          { available: toMinor(quote.targetAmount, quote.targetAssetCode) },
          nowMs,
        );
        s.conversions.set(conversion.conversionId, conversion);
        return { data: view(conversion) };
      },
    },
    {
      ...base,
      operation: 'conversions.get',
      method: 'GET',
      path: `${PREFIX}/:conversionId`,
      successCode: 200,
      handler: (req) => {
        const id = req.params.conversionId ?? '';
        const conversion = state().conversions.get(id);
        if (conversion === undefined) throw unknownResource('conversion', id);
        return { data: view(conversion) };
      },
    },
  ];
}
