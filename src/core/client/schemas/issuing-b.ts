import { z } from 'zod';
import { AmountSchema } from './issuing-common.js';

/**
 * Issuing family B (`/issuing/api/{version}`). Request schemas check structure only (required
 * fields, types, the spec's enums); lengths, charsets, digit counts, country codes, the KYC pair
 * and status transitions are the service's rules, so its own refusal reaches the caller.
 */

const text = z.string().min(1);
const optionalText = z.string().optional();

const KycProviderSchema = z.enum(['SUMSUB', 'MYINFO', 'JUMIO', 'DIDIT']);

/** Body of POST `/cardholder` (spec "Cardholder, family B"). */
export const CreateCardholderBBodySchema = z.object({
  title: z.enum(['Mr', 'Mrs', 'Miss']),
  firstName: text,
  middleName: optionalText,
  lastName: text,
  /** Name on card. */
  preferredName: text,
  gender: z.enum(['M', 'F', 'O']),
  /** `YYYY-MM-DD`. */
  dateOfBirth: text,
  mobileCountryName: optionalText,
  /** Digits only, no plus sign. */
  mobileCountryCode: text,
  /** 8 to 12 digits, no country code. */
  mobile: text,
  nationality: text,
  email: text,
  deliveryAddress1: text,
  deliveryAddress2: text,
  deliveryAddress3: optionalText,
  deliveryAddress4: optionalText,
  deliveryCity: text,
  deliveryState: text,
  deliveryCountry: text,
  deliveryZipCode: text,
  billingAddress1: text,
  billingAddress2: text,
  billingAddress3: optionalText,
  billingAddress4: optionalText,
  billingCity: text,
  billingState: text,
  billingCountry: text,
  billingZipCode: text,
  /** Only with the client's own KYC provider, whose verification must be finished first. */
  kycProviderName: KycProviderSchema.optional(),
  /** Required with `kycProviderName` (checked by the service). */
  kycReferenceId: optionalText,
});
export type CreateCardholderBBody = z.infer<typeof CreateCardholderBBodySchema>;

/** Body of PATCH `/cardholder`: any subset of the cardholder fields. */
export const UpdateCardholderBBodySchema = CreateCardholderBBodySchema.partial();
export type UpdateCardholderBBody = z.infer<typeof UpdateCardholderBBodySchema>;

/** `x-agent-code` and `x-subagent-code` headers of POST `/cardholder`. */
export const AgentCodesBSchema = z.object({ agentCode: text, subagentCode: text });
export type AgentCodesB = z.infer<typeof AgentCodesBSchema>;

/** Headers of GET `/wallet/history`: `x-card-id` restricts it to that card's completed transactions. */
export const WalletHistoryRefBSchema = z.object({
  cardholderId: text,
  walletId: text,
  cardId: text.optional(),
});
export type WalletHistoryRefB = z.infer<typeof WalletHistoryRefBSchema>;

/** Headers of the card endpoints that name a card. */
export const CardRefBSchema = z.object({ cardholderId: text, walletId: text, cardId: text });
export type CardRefB = z.infer<typeof CardRefBSchema>;

/** Body of POST `/wallet/transfer` (peer to peer). */
export const TransferBodySchema = z.object({
  /** The receiver. */
  email: text,
  amount: z.number(),
  description: text,
});
export type TransferBody = z.infer<typeof TransferBodySchema>;

/** Body of POST `/card`. */
export const CreateCardBBodySchema = z.object({
  card_type: z.literal('virtual'),
  is_primary: z.enum(['true', 'false']).optional(),
});
export type CreateCardBBody = z.infer<typeof CreateCardBBodySchema>;

/** Body of POST `/card/assign`. */
export const AssignCardBBodySchema = z.object({
  last_four_digit: text,
  /** Assignment code delivered with the card. */
  code: text,
});
export type AssignCardBBody = z.infer<typeof AssignCardBBodySchema>;

/** Query of GET `/card/list`. */
export const ListCardsBQuerySchema = z.object({
  page: z.number().int().optional(),
  size: z.number().int().optional(),
});
export type ListCardsBQuery = z.infer<typeof ListCardsBQuerySchema>;

export const CardConfigurationSchema = z.looseObject({ card_present_transaction_enabled: z.boolean() });
/** Body of PATCH `/card/configuration`. */
export const UpdateCardConfigurationBodySchema = z.object({ card_present_transaction_enabled: z.boolean() });
export type UpdateCardConfigurationBody = z.infer<typeof UpdateCardConfigurationBodySchema>;

export const CardStatusSchema = z.enum(['INACTIVE', 'ACTIVE', 'LOCKED', 'LOST', 'STOLEN', 'BLOCKED']);
/** Body of PATCH `/card/status/update` (not shown in the spec; the sandbox takes `{status}`). */
export const UpdateCardStatusBodySchema = z.object({ status: CardStatusSchema });
export type UpdateCardStatusBody = z.infer<typeof UpdateCardStatusBodySchema>;

export const OtpDeliveryMethodSchema = z.enum(['EMAIL', 'SMS']);
/** Body of POST and PATCH `/card/3DS`. */
export const ThreeDsBodySchema = z.object({ otp_delivery_method: OtpDeliveryMethodSchema });
export type ThreeDsBody = z.infer<typeof ThreeDsBodySchema>;

/** Body of PATCH `/card/limit`; ATM limits take only `DAY` and `MONTH` (checked by the service). */
export const UpdateSpendLimitBodySchema = z.object({
  amount_limit_period: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR', 'LIFETIME', 'TRANSACTION']),
  /** Greater than 0 (checked by the service); replaces the existing limit. */
  amount_limit: z.number().int(),
  transaction_type: z.enum(['PURCHASE', 'ATM_CASH_WITHDRAWAL']),
});
export type UpdateSpendLimitBody = z.infer<typeof UpdateSpendLimitBodySchema>;

// --- responses ---

export const IdItemBSchema = z.looseObject({ id: z.string() });
export const CardIdItemBSchema = z.looseObject({ cardId: z.string() });
export const StatusItemSchema = z.looseObject({ status: z.string() });

/** Cardholder detail, family B: the request fields plus `id`, `createAt`, `status`. */
export const CardholderBSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  firstName: z.string(),
  middleName: z.string().nullish(),
  lastName: z.string(),
  preferredName: z.string(),
  gender: z.string(),
  dateOfBirth: z.string(),
  mobileCountryName: z.string().nullish(),
  mobileCountryCode: z.string(),
  mobile: z.string(),
  nationality: z.string(),
  email: z.string(),
  deliveryAddress1: z.string(),
  deliveryAddress2: z.string(),
  deliveryAddress3: z.string().nullish(),
  deliveryAddress4: z.string().nullish(),
  deliveryCity: z.string(),
  deliveryState: z.string(),
  deliveryCountry: z.string(),
  deliveryZipCode: z.string(),
  billingAddress1: z.string(),
  billingAddress2: z.string(),
  billingAddress3: z.string().nullish(),
  billingAddress4: z.string().nullish(),
  billingCity: z.string(),
  billingState: z.string(),
  billingCountry: z.string(),
  billingZipCode: z.string(),
  kycProviderName: z.string().nullish(),
  kycReferenceId: z.string().nullish(),
  /** `YYYY-MM-DD HH:MM:SS` (the spec spells it `createAt`). */
  createAt: z.string(),
  /** Observed `ACTIVE`. */
  status: z.string(),
});

/** Card list item. */
const CardListItemSchema = z.looseObject({
  last4: z.string(),
  /** `YYYY-MM-DD`. */
  createdAt: z.string(),
  cardId: z.string(),
  /** `VIRTUAL` or `PHYSICAL`. */
  cardType: z.string(),
  cardStatus: z.string(),
});

/** `data[0]` of GET `/card/list`. */
export const CardListSchema = z.looseObject({
  cards: z.array(CardListItemSchema),
  total_count: z.number().int(),
  page: z.number().int(),
  total_pages: z.number().int(),
});

/** Limits are strings and may be empty. */
const limit = z.string().nullish();

/** Card details (GET `/card/details`). */
export const CardDetailsSchema = z.looseObject({
  printing_state: z.string().nullish(),
  daily_spend_limit: limit,
  purchase_limit: limit,
  total_spend_limit: limit,
  weekly_spend_limit: limit,
  monthly_spend_limit: limit,
  created_at: z.string(),
  card_type: z.string(),
  is_pin_set: z.boolean(),
  card_delivery_status: z.string().nullish(),
  card_is_primary: z.boolean(),
  card_number_id: z.string(),
  /** Masked. */
  truncated_card_number: z.string(),
  status: z.string(),
});

/** Secure link showing the full card number, expiry, CVV and name: a secret, never log it. */
export const CardTokenSchema = z.looseObject({ url: z.string() });

/** The iframe URL of the set, reset and change PIN endpoints. */
export const PinUrlSchema = z.looseObject({ set_pin_url: z.string() });

export const ThreeDsEnrollmentSchema = z.looseObject({
  otp_delivery_method: z.string(),
  destination: z.string(),
  /** Observed `ACTIVE`. */
  status: z.string(),
});

export const SpendLimitSchema = z.looseObject({
  amount_limit: AmountSchema,
  active: z.boolean(),
  amount_limit_period: z.string(),
  transaction_type: z.string(),
  currency_code: z.string(),
});
