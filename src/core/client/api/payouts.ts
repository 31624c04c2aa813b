import { type CallOptions, HttpClient } from '../http.js';
import { path } from '../path.js';
import {
  type CreatePayoutInput,
  CreatePayoutRequestSchema,
  type PayoutIdInput,
  PayoutIdInputSchema,
  type PayoutQuoteInput,
  PayoutQuoteRequestSchema,
  PayoutQuoteSchema,
  PayoutSchema,
} from '../schemas/payouts.js';
import { BANKING, family } from './family.js';

/** Payout quotes and payouts (spec "Payouts"). */
export function payoutsApi(http: HttpClient) {
  const { send, checked } = family(http, BANKING);
  return {
    /** POST /svc/banking/api/v1/payouts/quote: a payout quote, valid for about 75 seconds. */
    quote: (input: PayoutQuoteInput, options?: CallOptions) =>
      checked('payouts.quote', 'POST', '/payouts/quote', PayoutQuoteSchema, options, {
        body: [PayoutQuoteRequestSchema, input],
      }),

    /**
     * POST /svc/banking/api/v1/payouts: sends money on an unexpired quote (202, `PENDING`). Never
     * retried automatically; retry with the same `requestId` to avoid a second payout.
     */
    create: (input: CreatePayoutInput, options?: CallOptions) =>
      checked('payouts.create', 'POST', '/payouts', PayoutSchema, options, {
        body: [CreatePayoutRequestSchema, input],
      }),

    /** GET /svc/banking/api/v1/payouts/{payoutID}: the payout's status. */
    get: async (input: PayoutIdInput, options?: CallOptions) => {
      const { payoutId } = HttpClient.checkRequest('payouts.get', PayoutIdInputSchema, input);
      return send(
        {
          operation: 'payouts.get',
          method: 'GET',
          route: path`/payouts/${payoutId}`,
          response: PayoutSchema,
        },
        options,
      );
    },
  };
}
