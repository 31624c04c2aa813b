import { z } from 'zod';
import { EntityTypeSchema, PaymentMethodSchema } from '../../core/client/schemas/beneficiaries.js';
import { companyCodeField, currencyCode } from './fields.js';

// Optional fields accept whatever the user typed; the client drops empty ones before sending
// (the spec: fields that do not apply are omitted, never sent empty) and the corridor schema
// decides which are required.
const optionalText = (description: string) => z.string().optional().describe(description);

const AddressInputSchema = z.object({
  country: optionalText('2-letter country code of the address.'),
  nationality: optionalText('2-letter nationality code (individuals).'),
  city: optionalText('City.'),
  streetAddress: optionalText('Street and number.'),
  postalCode: optionalText('Postal or ZIP code.'),
  state: optionalText('State, province or region.'),
});

const BankInputSchema = z.object({
  bankName: optionalText('Name of the payee bank.'),
  bankAddress: optionalText('Address of the payee bank.'),
  bankCountry: optionalText("Payee bank's country (ISO 2-letter); picks the corridor."),
  accountHolder: optionalText('Name on the bank account.'),
  accountCurrency: optionalText('Currency of the bank account, e.g. USD.'),
  accountNumber: optionalText('Bank account number (this or iban).'),
  iban: optionalText('IBAN (this or accountNumber).'),
  swiftCode: optionalText('SWIFT/BIC of the payee bank.'),
  routingCodeType: optionalText('Routing code type, e.g. ach or aba, as the corridor demands.'),
  routingCodeValue: optionalText('Routing code value, e.g. an ABA number.'),
  routingCodeType2: optionalText('Second routing code type, if the corridor demands one.'),
  routingCodeValue2: optionalText('Second routing code value.'),
  extras: z
    .object({ clearingSystem: optionalText('Rail, e.g. ACH, FEDWIRE, LOCAL or SWIFT.') })
    .optional()
    .describe('Bank extras: the clearing system (rail).'),
});

/** The spec's beneficiary request shape, with `companyCode` filled from configuration when absent. */
export const BeneficiaryInputSchema = z.object({
  companyCode: companyCodeField,
  entityType: EntityTypeSchema.describe('INDIVIDUAL or COMPANY payee.'),
  displayName: optionalText('Name to show for this payee.'),
  firstName: optionalText('First name (INDIVIDUAL).'),
  lastName: optionalText('Last name (INDIVIDUAL).'),
  companyName: optionalText('Legal company name (COMPANY).'),
  email: optionalText("Payee's e-mail address."),
  currency: currencyCode.describe('Currency the payee receives, e.g. USD.'),
  country: optionalText("Payee's 2-letter country code."),
  address: AddressInputSchema.optional().describe("Payee's address."),
  bank: BankInputSchema.describe("Payee's bank account."),
  extras: z
    .object({ paymentMethod: PaymentMethodSchema.describe('LOCAL or SWIFT; picks the corridor.') })
    .describe('Payment extras: the payment method.'),
});
