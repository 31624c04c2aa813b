import { z } from 'zod';

/**
 * Shapes both issuing families share (spec "Wallet", "Wallet or card transaction", "KYC and RFI"),
 * and the request pieces both families use the same way.
 */

/** A `data` array the spec says holds one element: the element itself (an empty array is not the spec). */
export function single<T extends z.ZodType>(item: T) {
  return z.array(item).transform((items, ctx): z.output<T> => {
    const head = items[0];
    if (head === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected an array with one element, got an empty array' });
      return z.NEVER;
    }
    return head;
  });
}

/**
 * Where the spec contradicts itself on a response shape (family A card create: `data` an object in
 * the endpoint text, an array of one in the envelope table), both are accepted.
 */
export function objectOrSingle<T extends z.ZodType>(item: T) {
  return z.union([single(item), item]);
}

/**
 * A `data` array of at most one element where an empty array means "none" (no open RFI, a card
 * not enrolled in 3DS): the element, or `undefined`.
 */
export function optionalSingle<T extends z.ZodType>(item: T) {
  return z.array(item).transform((items): z.output<T> | undefined => items[0]);
}

/** Amounts whose type the spec does not give (it names `acquirer_amount` a string, the rest not): both accepted. */
export const AmountSchema = z.union([z.number(), z.string()]);

/** The success envelope of an issuing endpoint that answers without `data`. */
export const IssuingAckSchema = z.looseObject({
  status: z.string(),
  message: z.string(),
  code: z.number(),
});
export type IssuingAck = { status: string; message: string; code: number };
export const toAck = (e: z.infer<typeof IssuingAckSchema>): IssuingAck => ({
  status: e.status,
  message: e.message,
  code: e.code,
});

/** Wallet (spec "Resources: Wallet"). */
export const WalletSchema = z.looseObject({
  id: z.string(),
  currency: z.string(),
  amount: z.number(),
  holdingCurrency: z.string().nullish(),
  holdingAmount: z.number().nullish(),
  dailyLimitAmount: z.number().nullish(),
  weeklyLimitAmount: z.number().nullish(),
  monthlyLimitAmount: z.number().nullish(),
  yearlyLimitAmount: z.number().nullish(),
  totalLimitAmount: z.number().nullish(),
  status: z.string(),
  /** Timestamp without zone. */
  createdAt: z.string(),
});
export type Wallet = z.infer<typeof WalletSchema>;

/** Wallet or card transaction, a history item (spec "Wallet or card transaction"). */
export const WalletTransactionSchema = z.looseObject({
  genericSlNo: z.number().int(),
  slNo: z.union([z.string(), z.number()]).nullish(),
  wallet_id: z.string(),
  programCode: z.string().nullish(),
  txn_currency: z.string(),
  txn_amount: AmountSchema,
  available_amount: AmountSchema.nullish(),
  available_currency: z.string().nullish(),
  acquirer_amount: z.string().nullish(),
  acquirer_currency: z.string().nullish(),
  /** Observed `fee_SCTF`, `FEE`, `P2P`, `deduction`, `fee_PERTXN`; the full list is not in the spec. */
  txn_type: z.string(),
  txn_direction: z.string(),
  txn_ref_id: z.string().nullish(),
  txn_email: z.string().nullable(),
  txn_description: z.string().nullable(),
  txn_status: z.string(),
  card_acceptor_name: z.string().nullish(),
  card_id: z.string().nullish(),
  initiated_by: z.string().nullish(),
  settle_amount: AmountSchema.nullish(),
  settle_currency: z.string().nullish(),
  billing_amount: AmountSchema.nullish(),
  billing_currency: z.string().nullish(),
  /** `YYYY-MM-DDTHH:MM:SS`. */
  initiatedAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** Present on some items only. */
  masked_card_number: z.string().nullish(),
});

/** KYC view (`/kyc` and `/kyc/rfi/respond` of both families). */
export const KycViewSchema = z.looseObject({
  /** Observed `COMPLETED`, `PENDING`. */
  kycStatus: z.string(),
  /** Document submission link; empty when KYC is complete. */
  kycLink: z.string().nullish(),
  documentType: z.string().nullish(),
  /** Observed `COMPLETED`, `IN_PROGRESS`. */
  complianceStatus: z.string().nullish(),
  email: z.string().nullish(),
});

/** RFI details (`/kyc/rfi` of both families). */
export const RfiDetailsSchema = z.looseObject({
  /** Keys observed `address` and `document`, each mapping to decline codes. */
  services_declined_codes: z.record(z.string(), z.array(z.string())),
  declined_reason: z.string(),
});
export type RfiDetails = z.infer<typeof RfiDetailsSchema>;

const id = z.string().min(1);

/** Identity headers, given to the methods as inputs and sent as headers. */
export const CardholderRefSchema = z.object({ cardholderId: id });
export type CardholderRef = z.infer<typeof CardholderRefSchema>;
export const WalletRefSchema = z.object({ cardholderId: id, walletId: id });
export type WalletRef = z.infer<typeof WalletRefSchema>;
/** `x-cardholderHash-id`: the KYC endpoints and family B's cardholder read/update/activate. */
export const CardholderHashRefSchema = z.object({ cardholderHashId: id });
export type CardholderHashRef = z.infer<typeof CardholderHashRefSchema>;

/** Body of POST `/wallet` (both families). */
export const CreateWalletBodySchema = z.object({ currency: z.string().min(1) });
export type CreateWalletBody = z.infer<typeof CreateWalletBodySchema>;

/** Query of GET `/wallet/history` (both families); dates `YYYY-MM-DD` or `yyyy-MM-ddTHH:mm:ss`. */
export const WalletHistoryQuerySchema = z.object({
  from_date: z.string().optional(),
  to_date: z.string().optional(),
  page: z.number().int().optional(),
  size: z.number().int().optional(),
});
export type WalletHistoryQuery = z.infer<typeof WalletHistoryQuerySchema>;
