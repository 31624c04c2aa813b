import { type CallOptions, HttpClient } from '../http.js';
import { path } from '../path.js';
import {
  type ConversionIdInput,
  ConversionIdInputSchema,
  type ConversionQuoteInput,
  ConversionQuoteRequestSchema,
  ConversionSchema,
  type CreateConversionInput,
  CreateConversionRequestSchema,
  FxQuoteSchema,
} from '../schemas/conversions.js';
import { BANKING, family } from './family.js';

/** FX quotes and conversions (spec "Conversions"). */
export function conversionsApi(http: HttpClient) {
  const { send, checked } = family(http, BANKING);
  return {
    /** POST /svc/banking/api/v1/conversions/quote: an FX quote, valid for about 75 seconds. */
    quote: (input: ConversionQuoteInput, options?: CallOptions) =>
      checked('conversions.quote', 'POST', '/conversions/quote', FxQuoteSchema, options, {
        body: [ConversionQuoteRequestSchema, input],
      }),

    /**
     * POST /svc/banking/api/v1/conversions: executes an unexpired quote (202, `EXECUTING`). Never
     * retried automatically; retry with the same `requestId` to avoid a second conversion.
     */
    create: (input: CreateConversionInput, options?: CallOptions) =>
      checked('conversions.create', 'POST', '/conversions', ConversionSchema, options, {
        body: [CreateConversionRequestSchema, input],
      }),

    /** GET /svc/banking/api/v1/conversions/{conversionID}: the conversion's status. */
    get: async (input: ConversionIdInput, options?: CallOptions) => {
      const { conversionId } = HttpClient.checkRequest('conversions.get', ConversionIdInputSchema, input);
      return send(
        {
          operation: 'conversions.get',
          method: 'GET',
          route: path`/conversions/${conversionId}`,
          response: ConversionSchema,
        },
        options,
      );
    },
  };
}
