import { z } from 'zod';

const text = z.string().min(1);

const ENTITY_TYPES = ['INDIVIDUAL', 'COMPANY'] as const;
const PAYMENT_METHODS = ['LOCAL', 'SWIFT'] as const;
export const EntityTypeSchema = z.enum(ENTITY_TYPES);
export const PaymentMethodSchema = z.enum(PAYMENT_METHODS);

export const BeneficiaryOptionsQuerySchema = z.object({ currency: text.optional() });
export type BeneficiaryOptionsQuery = z.infer<typeof BeneficiaryOptionsQuerySchema>;

/** Beneficiary corridor option (spec "Resources: Beneficiary corridor option"). */
export const CorridorOptionSchema = z.looseObject({
  currency: z.string(),
  country: z.string(),
  entityType: z.string(),
  paymentMethod: z.string(),
  description: z.string().nullish(),
});
export const CorridorOptionsSchema = z.array(CorridorOptionSchema);

/**
 * Query of GET /beneficiaries/schema. Call first without `clearingSystem` to learn the rails, then
 * with one to get the corridor's full rules.
 */
export const BeneficiarySchemaQuerySchema = z.object({
  currency: text,
  entityType: EntityTypeSchema,
  paymentMethod: PaymentMethodSchema,
  /** Payee bank country; give it when the bank is outside the currency's home country. */
  country: text.optional(),
  clearingSystem: text.optional(),
});
export type BeneficiarySchemaQuery = z.infer<typeof BeneficiarySchemaQuerySchema>;

/** The corridor's JSON Schema (draft 2020-12), kept whole for ajv. */
export const CorridorJsonSchemaSchema = z.looseObject({
  title: z.string().optional(),
  type: z.unknown().optional(),
  required: z.array(z.string()).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
  allOf: z.array(z.unknown()).optional(),
});
export type CorridorJsonSchema = z.infer<typeof CorridorJsonSchemaSchema>;

// Nested objects are loose: the corridor schema, not this list, decides which extra fields apply.
const AddressSchema = z.looseObject({
  country: text.optional(),
  nationality: text.optional(),
  city: text.optional(),
  streetAddress: text.optional(),
  postalCode: text.optional(),
  state: text.optional(),
});

const BankSchema = z.looseObject({
  bankName: text.optional(),
  bankAddress: text.optional(),
  bankCountry: text.optional(),
  accountHolder: text.optional(),
  accountCurrency: text.optional(),
  accountNumber: text.optional(),
  iban: text.optional(),
  swiftCode: text.optional(),
  routingCodeType: text.optional(),
  routingCodeValue: text.optional(),
  routingCodeType2: text.optional(),
  routingCodeValue2: text.optional(),
  extras: z.looseObject({ clearingSystem: text.optional() }).optional(),
});

/**
 * Beneficiary request shape (spec "Resources: Beneficiary"). Only the fields the spec marks "yes"
 * are required here; the rest is decided by the corridor schema, checked before sending.
 * `displayName` is the exception: "yes" in the request field list, but the sample corridor schema
 * (which the request is validated against) lists it without requiring it, so it is optional.
 */
export const CreateBeneficiarySchema = z.looseObject({
  companyCode: text,
  entityType: EntityTypeSchema,
  displayName: text.optional(),
  firstName: text.optional(),
  lastName: text.optional(),
  companyName: text.optional(),
  email: text.optional(),
  currency: text,
  country: text.optional(),
  address: AddressSchema.optional(),
  bank: BankSchema,
  /** `paymentMethod` picks the corridor schema, so the client needs it. */
  extras: z.looseObject({ paymentMethod: PaymentMethodSchema }),
});
/** What callers pass; empty strings (and nulls, at run time) are removed before sending. */
export type CreateBeneficiaryInput = z.input<typeof CreateBeneficiarySchema>;

export const CreatedBeneficiarySchema = z.looseObject({ beneficiary_id: z.string() });
