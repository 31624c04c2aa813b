import type { z } from 'zod';
import { CreateCardholderBBodySchema } from '../../core/client/schemas/issuing-b.js';

/**
 * The family B cardholder fields as tool inputs: the client's request schemas (types and enums),
 * each with a description carrying the spec's rule. Lengths, charsets and country codes stay the
 * service's rules, so its message names every failing field at once.
 */

const body = CreateCardholderBBodySchema.shape;

/** Said once for both addresses; every line follows the same rule. */
const ADDRESS_LINE =
  'every address line: at most 35 of letters, digits, inner spaces and _ @ # / , . - ( ) (no parentheses on update)';

const descriptions = {
  title: 'Title.',
  firstName: 'First name, at most 14 characters.',
  middleName: 'Middle name, at most 35 characters.',
  lastName: 'Last name, at most 11 characters.',
  preferredName: 'Name printed on the card, at most 26 characters.',
  gender: 'Gender.',
  dateOfBirth: 'Date of birth, YYYY-MM-DD.',
  mobileCountryName: 'Country of the mobile, ISO 2-letter.',
  mobileCountryCode: 'Dialling code without +, e.g. 65.',
  mobile: '8 to 12 digits, no country code.',
  nationality: 'Nationality, ISO 2-letter.',
  email: 'E-mail; wallet transfers find the receiver by it.',
  deliveryAddress1: `Delivery address line 1; ${ADDRESS_LINE}.`,
  deliveryAddress2: 'Delivery address line 2.',
  deliveryAddress3: 'Delivery address line 3.',
  deliveryAddress4: 'Delivery address line 4.',
  deliveryCity: 'Delivery city.',
  deliveryState: 'Delivery state, at most 20 characters.',
  deliveryCountry: 'Delivery country, ISO 2-letter.',
  deliveryZipCode: 'Delivery postal code.',
  billingAddress1: 'Billing address line 1; rules as deliveryAddress1.',
  billingAddress2: 'Billing address line 2.',
  billingAddress3: 'Billing address line 3.',
  billingAddress4: 'Billing address line 4.',
  billingCity: 'Billing city.',
  billingState: 'Billing state, at most 20 characters.',
  billingCountry: 'Billing country, ISO 2-letter.',
  billingZipCode: 'Billing postal code.',
  kycProviderName: 'Only after KYC with your own provider; with kycReferenceId.',
  kycReferenceId: "The provider's KYC reference, for kycProviderName.",
} as const satisfies Record<keyof typeof body, string>;

type Body = typeof body;

// `Object.fromEntries` forgets the keys; the mapped types restore them (each entry is built from
// the same key's schema, so the assertion holds by construction).

/** Create: the spec's required fields required, the rest optional, each described. */
export const createCardholderFields = Object.fromEntries(
  Object.entries(body).map(([key, schema]) => [key, schema.describe(descriptions[key as keyof Body])]),
) as { [K in keyof Body]: Body[K] };

/** Update: every field optional; only the ones given change. */
export const updateCardholderFields = Object.fromEntries(
  Object.entries(body).map(([key, schema]) => [
    key,
    // The description goes on the outermost schema: zod 4 does not carry it through `.optional()`.
    schema.optional().describe(descriptions[key as keyof Body]),
  ]),
) as { [K in keyof Body]: z.ZodOptional<Body[K]> };
