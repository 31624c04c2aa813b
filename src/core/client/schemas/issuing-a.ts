import { z } from 'zod';
import { AmountSchema } from './issuing-common.js';

/**
 * Issuing family A (`/svc/issuing/api/v1`). Request schemas check structure only (required fields,
 * types, the spec's enums); the rules the service enforces (age, English-only names, digits, dates
 * given together) are left to it so its own refusal reaches the caller.
 */

const text = z.string().min(1);

/** Cardholder address (spec: `postal_address`, `individual.address`). */
const AddressASchema = z.object({
  line1: text,
  line2: z.string().optional(),
  city: text,
  state: text,
  /** 2-letter country code. */
  country: text,
  postcode: text,
});
export type AddressA = z.infer<typeof AddressASchema>;

export const NameASchema = z.object({
  title: z.string().optional(),
  first_name: text,
  middle_name: z.string().optional(),
  last_name: text,
  name_on_card: z.string().optional(),
});

/** Body of POST `/card/cardholder`. */
export const CreateCardholderABodySchema = z.object({
  email: text,
  /** Digits without the country code. */
  mobile_number: text,
  /** 2-letter ISO 3166-1; defaults to the individual's country. */
  country_code: z.string().optional(),
  individual: z.object({
    /** `YYYY-MM-DD`; at least 18 and under 80 (checked by the service). */
    date_of_birth: text,
    name: NameASchema,
    address: AddressASchema,
  }),
  type: z.literal('INDIVIDUAL'),
  created_by: text,
});
export type CreateCardholderABody = z.infer<typeof CreateCardholderABodySchema>;

/** `agent-code` and `subagent-code` headers of POST `/card/cardholder`. */
export const AgentCodesASchema = z.object({ agentCode: text, subagentCode: text });
export type AgentCodesA = z.infer<typeof AgentCodesASchema>;

export const CardholderStatusSchema = z.enum(['PENDING', 'SUCCESS', 'INCOMPLETE', 'FAILED']);

/** Query of GET `/card/cardholder` as a list. */
export const ListCardholdersAQuerySchema = z.object({
  status: CardholderStatusSchema.optional(),
  page_num: z.number().int().optional(),
  page_size: z.number().int().optional(),
});
export type ListCardholdersAQuery = z.infer<typeof ListCardholdersAQuerySchema>;

/** Query of GET `/card/cardholder` for one cardholder: `id` or `email`, not both. */
export const GetCardholderAQuerySchema = z.union([
  z.strictObject({ id: text }),
  z.strictObject({ email: text }),
]);
export type GetCardholderAQuery = z.infer<typeof GetCardholderAQuerySchema>;

/**
 * Body of PATCH `/card/cardholder?id=`: only supplied fields change. `mobile_number` and
 * `country_code` go together, which the service checks.
 */
export const UpdateCardholderABodySchema = z.object({
  mobile_number: z.string().optional(),
  country_code: z.string().optional(),
  individual: z
    .object({
      address: AddressASchema.optional(),
      name: NameASchema.optional(),
    })
    .optional(),
  updated_by: text,
});
export type UpdateCardholderABody = z.infer<typeof UpdateCardholderABodySchema>;

/** Body of POST `/card` (the service's virtual cards; physical cards come through Assign Card). */
export const CreateCardABodySchema = z.object({
  card_type: z.literal('VIRTUAL'),
  card_holder_id: text,
  created_by: text,
  request_id: text,
  program: z.object({ purpose: z.literal('COMMERCIAL') }),
  authorization_controls: z.object({
    allowed_transaction_count: z.literal('MULTIPLE'),
    transaction_limits: z.object({
      currency: text,
      /** Omitted: the program-level defaults apply. */
      limits: z.array(z.object({ amount: z.number(), interval: z.literal('PER_TRANSACTION') })).optional(),
    }),
  }),
  is_personalized: z.literal(false),
});
export type CreateCardABody = z.infer<typeof CreateCardABodySchema>;

/** Body of POST `/card/assign`; the creator is `createdBy` as in the request field list. */
export const AssignCardABodySchema = z.object({
  cardholder_id: text,
  card_number: text,
  card_currency: text,
  /** `SINGLE` = prepaid, loaded with funds before use. */
  card_mode: z.literal('SINGLE'),
  createdBy: text,
});
export type AssignCardABody = z.infer<typeof AssignCardABodySchema>;

export const CardRefASchema = z.object({ cardId: text });
export type CardRefA = z.infer<typeof CardRefASchema>;

/** Body of POST `/card/activate?id=`. */
export const ActivateCardABodySchema = z.object({ activation_code: text, pin: text });
export type ActivateCardABody = z.infer<typeof ActivateCardABodySchema>;

/** Body of POST `/card/pin?id=`. */
export const ResetPinABodySchema = z.object({ pin: text });
export type ResetPinABody = z.infer<typeof ResetPinABodySchema>;

/** Query of GET `/card/transaction` besides the card id; the two dates go together (checked by the service). */
export const CardTransactionsAQuerySchema = z.object({
  page_num: z.number().int().optional(),
  page_size: z.number().int().optional(),
  /** `YYYY-MM-DD`. */
  from_created_at: z.string().optional(),
  /** `YYYY-MM-DD`. */
  to_created_at: z.string().optional(),
});
export type CardTransactionsAQuery = z.infer<typeof CardTransactionsAQuerySchema>;

// --- responses ---

export const IdItemSchema = z.looseObject({ id: z.string() });
export const CardIdItemASchema = z.looseObject({ card_id: z.string() });

const AddressViewSchema = z.looseObject({
  line1: z.string(),
  line2: z.string().nullish(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  postcode: z.string(),
});

/** Cardholder, family A (spec "Cardholder, family A"). */
export const CardholderASchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  country_code: z.string(),
  mobile_number: z.string(),
  kyc_status: z.string().nullable(),
  /** Observed `SUCCESS`. */
  status: z.string(),
  type: z.string(),
  postal_address: AddressViewSchema.nullish(),
  individual: z.looseObject({
    address: AddressViewSchema,
    date_of_birth: z.string(),
    employers: z.unknown().nullable().optional(),
    // The spec makes "the first, second and last" name fields nullable; which list it counts is
    // unclear, so every name part but the last name is accepted as null.
    name: z.looseObject({
      title: z.string().nullish(),
      first_name: z.string().nullable(),
      middle_name: z.string().nullish(),
      last_name: z.string(),
      name_on_card: z.string().nullish(),
    }),
  }),
  /** `YYYY-MM-DD HH:MM:SS`. */
  created_at: z.string(),
  review_status: z.string().nullish(),
});
export type CardholderA = z.infer<typeof CardholderASchema>;

/** The family A cardholder list: the only issuing envelope with `totalcount`. */
export const CardholderListEnvelopeSchema = z.looseObject({
  totalcount: z.number().int(),
  data: z.array(CardholderASchema),
});
export interface CardholderListA {
  totalcount: number;
  cardholders: CardholderA[];
}

const MerchantSchema = z.looseObject({
  category_code: z.string().nullish(),
  city: z.string().nullish(),
  country: z.string().nullish(),
  identifier: z.string().nullish(),
  name: z.string().nullish(),
  postcode: z.string().nullish(),
  state: z.string().nullish(),
});

/** Card transaction, a family A item (spec "Card transaction (family A item)"). */
export const CardTransactionASchema = z.looseObject({
  transaction_id: z.string(),
  card_id: z.string(),
  /** Observed `APPROVED`. */
  status: z.string(),
  /** Observed `REFUND`. */
  transaction_type: z.string(),
  transaction_amount: AmountSchema,
  transaction_currency: z.string(),
  /** ISO 8601 with offset. */
  transaction_date: z.string(),
  acquiring_institution_identifier: z.string().nullish(),
  auth_code: z.string().nullish(),
  billing_amount: AmountSchema.nullish(),
  billing_currency: z.string().nullish(),
  card_nickname: z.string().nullish(),
  client_data: z.unknown().optional(),
  digital_wallet_token_id: z.string().nullish(),
  /** Observed `INSUFFICIENT_FUNDS`. */
  failure_reason: z.string().nullish(),
  lifecycle_id: z.string().nullish(),
  masked_card_number: z.string().nullish(),
  matched_authorizations: z.array(z.string()).nullish(),
  merchant: MerchantSchema.nullish(),
  network_transaction_id: z.string().nullish(),
  posted_date: z.string().nullish(),
  retrieval_ref: z.string().nullish(),
  risk_details: z
    .looseObject({
      risk_actions_performed: z.array(z.unknown()).nullish(),
      risk_factors: z.array(z.unknown()).nullish(),
      three_dsecure_outcome: z.unknown().optional(),
    })
    .nullish(),
});

/** `data` of GET `/card/transaction`: an object, unlike the other issuing answers. */
export const CardTransactionPageASchema = z.looseObject({
  has_more: z.boolean(),
  items: z.array(CardTransactionASchema),
});
