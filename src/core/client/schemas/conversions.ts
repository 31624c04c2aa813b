import { z } from 'zod';

const text = z.string().min(1);

const QUOTE_SIDES = ['SOURCE', 'TARGET'] as const;
/** Whether `amount` is in the source or the target currency. */
export const QuoteSideSchema = z.enum(QUOTE_SIDES);

/** Body of POST /conversions/quote; `direction` has one value and defaults to it. */
export const ConversionQuoteRequestSchema = z.object({
  companyCode: text,
  direction: z.literal('FX_CONVERT').default('FX_CONVERT'),
  sourceAssetCode: text,
  targetAssetCode: text,
  amount: z.number().positive(),
  side: QuoteSideSchema,
});
export type ConversionQuoteInput = z.input<typeof ConversionQuoteRequestSchema>;

/** FX quote (spec "Resources: FX quote"); valid for about 75 seconds. */
export const FxQuoteSchema = z.looseObject({
  quoteId: z.string(),
  direction: z.string(),
  sourceAssetCode: z.string(),
  targetAssetCode: z.string(),
  sourceAmount: z.number(),
  targetAmount: z.number(),
  rate: z.number(),
  inverseRate: z.number(),
  currencyPair: z.string(),
  processingFee: z.number().nullish(),
  networkFee: z.number().nullish(),
  feeAssetCode: z.string().nullish(),
  expiresAt: z.string(),
});
export type FxQuote = z.infer<typeof FxQuoteSchema>;

/** Body of POST /conversions. */
export const CreateConversionRequestSchema = z.object({
  companyCode: text,
  quoteId: text,
  clientReference: text.optional(),
});
export type CreateConversionInput = z.input<typeof CreateConversionRequestSchema>;

export const ConversionIdInputSchema = z.object({ conversionId: text });
export type ConversionIdInput = z.infer<typeof ConversionIdInputSchema>;

/** Conversion status view; `EXECUTING` is the only state the spec shows. */
export const ConversionSchema = z.looseObject({
  conversionId: z.string(),
  externalReference: z.string().nullish(),
  status: z.string(),
});
export type Conversion = z.infer<typeof ConversionSchema>;
