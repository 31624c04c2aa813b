import { z } from 'zod';
import { QuoteSideSchema } from './conversions.js';

const text = z.string().min(1);

/** The spec's `purposeCode` values. */
const PURPOSE_CODES = [
  'AUDIO_VISUAL_SERVICES',
  'BILL_PAYMENT',
  'BUSINESS_EXPENSES',
  'CONSTRUCTION',
  'DONATION_CHARITABLE_CONTRIBUTION',
  'EDUCATION_TRAINING',
  'FAMILY_SUPPORT',
  'FREIGHT',
  'GOODS_PURCHASED',
  'INVESTMENT_CAPITAL',
  'INVESTMENT_PROCEEDS',
  'LIVING_EXPENSES',
  'LOAN_CREDIT_REPAYMENT',
  'MEDICAL_SERVICES',
  'PENSION',
  'PERSONAL_REMITTANCE',
  'PROFESSIONAL_BUSINESS_SERVICES',
  'REAL_ESTATE',
  'TAXES',
  'TECHNICAL_SERVICES',
  'TRANSFER_TO_OWN_ACCOUNT',
  'TRAVEL',
  'WAGES_SALARY',
] as const;
export const PurposeCodeSchema = z.enum(PURPOSE_CODES);
export type PurposeCode = z.infer<typeof PurposeCodeSchema>;

/** Body of POST /payouts/quote. */
export const PayoutQuoteRequestSchema = z.object({
  companyCode: text,
  beneficiaryId: text,
  /** The rail that delivers the payout, e.g. `SWIFT`. */
  destinationRail: text,
  sourceAssetCode: text,
  destinationAssetCode: text.optional(),
  /** The funding account. */
  sourceAccountId: text,
  amount: z.number().positive(),
  side: QuoteSideSchema,
});
export type PayoutQuoteInput = z.input<typeof PayoutQuoteRequestSchema>;

/** Payout quote (spec "Resources: Payout quote"); valid for about 75 seconds. */
export const PayoutQuoteSchema = z.looseObject({
  quoteId: z.string(),
  sourceAssetCode: z.string(),
  destinationAssetCode: z.string(),
  sourceAmount: z.number(),
  destinationAmount: z.number(),
  /** Carried when the payout currency differs from the funding currency. */
  fxRate: z.number().nullish(),
  processingFee: z.number().nullish(),
  networkFee: z.number().nullish(),
  feeAssetCode: z.string().nullish(),
  platformFee: z.number().nullish(),
  totalDebitAmount: z.number(),
  expiresAt: z.string(),
});
export type PayoutQuote = z.infer<typeof PayoutQuoteSchema>;

/** Body of POST /payouts. */
export const CreatePayoutRequestSchema = z.object({
  companyCode: text,
  quoteId: text,
  purposeCode: PurposeCodeSchema,
  /** Bank payment reference shown in the beneficiary's bank records. */
  reference: text.optional(),
  clientReference: text.optional(),
});
export type CreatePayoutInput = z.input<typeof CreatePayoutRequestSchema>;

export const PayoutIdInputSchema = z.object({ payoutId: text });
export type PayoutIdInput = z.infer<typeof PayoutIdInputSchema>;

/** Payout status view; `PENDING` is the only state the spec shows. */
export const PayoutSchema = z.looseObject({
  payoutId: z.string(),
  externalReference: z.string().nullish(),
  status: z.string(),
});
export type Payout = z.infer<typeof PayoutSchema>;
