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

const PREFIX = '/svc/banking/api/v1/payouts';

/** Payout quotes and payouts (spec "Payouts"). */
export function payoutsApi(http: HttpClient) {
  return {
    /** POST /svc/banking/api/v1/payouts/quote: a payout quote, valid for about 75 seconds. */
    quote: async (input: PayoutQuoteInput, options?: CallOptions) => {
      const body = HttpClient.checkRequest('payouts.quote', PayoutQuoteRequestSchema, input);
      return http.call(
        {
          operation: 'payouts.quote',
          method: 'POST',
          path: `${PREFIX}/quote`,
          headerSet: 'HB',
          body,
          envelope: 'banking',
          response: PayoutQuoteSchema,
        },
        options,
      );
    },

    /**
     * POST /svc/banking/api/v1/payouts: sends money on an unexpired quote (202, `PENDING`). Never
     * retried automatically; retry with the same `requestId` to avoid a second payout.
     */
    create: async (input: CreatePayoutInput, options?: CallOptions) => {
      const body = HttpClient.checkRequest('payouts.create', CreatePayoutRequestSchema, input);
      return http.call(
        {
          operation: 'payouts.create',
          method: 'POST',
          path: PREFIX,
          headerSet: 'HB',
          body,
          envelope: 'banking',
          response: PayoutSchema,
        },
        options,
      );
    },

    /** GET /svc/banking/api/v1/payouts/{payoutID}: the payout's status. */
    get: async (input: PayoutIdInput, options?: CallOptions) => {
      const { payoutId } = HttpClient.checkRequest('payouts.get', PayoutIdInputSchema, input);
      return http.call(
        {
          operation: 'payouts.get',
          method: 'GET',
          path: path`/svc/banking/api/v1/payouts/${payoutId}`,
          headerSet: 'HB',
          envelope: 'banking',
          response: PayoutSchema,
        },
        options,
      );
    },
  };
}
