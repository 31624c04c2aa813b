import { z } from 'zod';
import {
  calendarDate,
  countryCode,
  currencyCode,
  email,
  englishName,
  mobileNumber,
  object,
  only,
  pin,
  text,
} from './fields.js';

/** Request bodies of the family A endpoints (spec "Issuing family A"). Unlisted fields are dropped. */

export const AddressBody = object({
  line1: text(),
  line2: z.string({ error: 'must be a string' }).nullish(),
  city: text(),
  state: text(),
  country: countryCode(),
  postcode: text(),
});
export type AddressBody = z.infer<typeof AddressBody>;

export const NameBody = object({
  title: englishName().nullish(),
  first_name: englishName(),
  middle_name: englishName().nullish(),
  last_name: englishName(),
  name_on_card: englishName().nullish(),
});
export type NameBody = z.infer<typeof NameBody>;

export const CreateCardholderBody = object({
  email: email(),
  mobile_number: mobileNumber(),
  country_code: countryCode().optional(),
  individual: object({
    date_of_birth: calendarDate(),
    name: NameBody,
    address: AddressBody,
  }),
  type: only('INDIVIDUAL'),
  created_by: text(),
});
export type CreateCardholderBody = z.infer<typeof CreateCardholderBody>;

/** Only supplied fields change; `name` and `address` are replaced whole, so their required parts are required. */
export const UpdateCardholderBody = object({
  email: email().optional(),
  mobile_number: mobileNumber().optional(),
  country_code: countryCode().optional(),
  individual: object({
    date_of_birth: calendarDate().optional(),
    name: NameBody.optional(),
    address: AddressBody.optional(),
  }).optional(),
  updated_by: text(),
});
export type UpdateCardholderBody = z.infer<typeof UpdateCardholderBody>;

export const CreateCardBody = object({
  card_type: only('VIRTUAL', 'physical cards are issued with POST /card/assign'),
  card_holder_id: text(),
  created_by: text(),
  request_id: text(),
  program: object({ purpose: only('COMMERCIAL') }),
  authorization_controls: object({
    allowed_transaction_count: only('MULTIPLE'),
    transaction_limits: object({
      currency: currencyCode(),
      limits: z
        .array(
          object({
            amount: z
              .number({ error: (i) => (i.input === undefined ? 'is required' : 'must be a number') })
              .positive('must be greater than 0'),
            interval: only('PER_TRANSACTION'),
          }),
          { error: 'must be an array' },
        )
        .optional(),
    }),
  }),
  is_personalized: z
    .boolean({ error: (i) => (i.input === undefined ? 'is required' : 'must be a boolean') })
    .refine((v) => !v, 'must be false'),
});
export type CreateCardBody = z.infer<typeof CreateCardBody>;

/** The request field list spells the creator `createdBy`, the sample body `created_by`: both are accepted. */
export const AssignCardBody = object({
  cardholder_id: text(),
  card_number: z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string of 16 digits') })
    .regex(/^\d{16}$/, 'must be 16 digits'),
  card_currency: currencyCode(),
  card_mode: only('SINGLE', 'prepaid'),
  createdBy: text().optional(),
  created_by: text().optional(),
});
export type AssignCardBody = z.infer<typeof AssignCardBody>;

export const ActivateCardBody = object({ activation_code: text(), pin: pin() });
export const ResetPinBody = object({ pin: pin() });

export const CreateWalletBody = object({ currency: currencyCode() });
