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

const PREFIX = '/svc/banking/api/v1/conversions';

/** FX quotes and conversions (spec "Conversions"). */
export function conversionsApi(http: HttpClient) {
  return {
    /** POST /svc/banking/api/v1/conversions/quote: an FX quote, valid for about 75 seconds. */
    quote: async (input: ConversionQuoteInput, options?: CallOptions) => {
      const body = HttpClient.checkRequest('conversions.quote', ConversionQuoteRequestSchema, input);
      return http.call(
        {
          operation: 'conversions.quote',
          method: 'POST',
          path: `${PREFIX}/quote`,
          headerSet: 'HB',
          body,
          envelope: 'banking',
          response: FxQuoteSchema,
        },
        options,
      );
    },

    /**
     * POST /svc/banking/api/v1/conversions: executes an unexpired quote (202, `EXECUTING`). Never
     * retried automatically; retry with the same `requestId` to avoid a second conversion.
     */
    create: async (input: CreateConversionInput, options?: CallOptions) => {
      const body = HttpClient.checkRequest('conversions.create', CreateConversionRequestSchema, input);
      return http.call(
        {
          operation: 'conversions.create',
          method: 'POST',
          path: PREFIX,
          headerSet: 'HB',
          body,
          envelope: 'banking',
          response: ConversionSchema,
        },
        options,
      );
    },

    /** GET /svc/banking/api/v1/conversions/{conversionID}: the conversion's status. */
    get: async (input: ConversionIdInput, options?: CallOptions) => {
      const { conversionId } = HttpClient.checkRequest('conversions.get', ConversionIdInputSchema, input);
      return http.call(
        {
          operation: 'conversions.get',
          method: 'GET',
          path: path`/svc/banking/api/v1/conversions/${conversionId}`,
          headerSet: 'HB',
          envelope: 'banking',
          response: ConversionSchema,
        },
        options,
      );
    },
  };
}
