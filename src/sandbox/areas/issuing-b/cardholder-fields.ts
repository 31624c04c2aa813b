import { z } from 'zod';
import { isCountryCode } from '../../countries.js';
import { isCalendarDate } from '../../validate.js';

/**
 * The rules of the spec's "Cardholder, family B" table. Create requires the fields marked R;
 * update accepts every field as optional. The only difference in the rules themselves is the
 * address charset: parentheses are allowed on create but not on update.
 */
export type Mode = 'create' | 'update';

const text = () =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .refine((v) => v.trim() !== '', 'must not be blank');

const maxText = (max: number) => text().refine((v) => v.length <= max, `must be at most ${max} characters`);

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (iss) => (iss.input === undefined ? 'is required' : `must be one of ${values.join(', ')}`),
  });

const country = () =>
  text().refine(isCountryCode, 'must be a 2-letter ISO 3166 country code in capitals (e.g. SG)');

const ADDRESS_SPECIALS: Record<Mode, string> = { create: '_@#/,.-()', update: '_@#/,.-' };
const escapeClass = (chars: string): string => chars.replace(/[\\\]^-]/g, '\\$&');

/** Address lines: at most 35 characters of letters, digits, spaces (not first or last) and specials. */
const addressLine = (mode: Mode) => {
  const allowed = new RegExp(`^[A-Za-z0-9 ${escapeClass(ADDRESS_SPECIALS[mode])}]*$`);
  const shown = ADDRESS_SPECIALS[mode].split('').join(' ');
  const rule =
    mode === 'create'
      ? `may contain only letters, digits, spaces and ${shown}`
      : `may contain only letters, digits, spaces and ${shown} (parentheses are not allowed on update)`;
  return maxText(35)
    .refine((v) => !v.startsWith(' ') && !v.endsWith(' '), 'must not start or end with a space')
    .refine((v) => allowed.test(v), rule);
};

function shape(mode: Mode) {
  const line = () => addressLine(mode);
  return {
    title: oneOf(['Mr', 'Mrs', 'Miss']),
    firstName: maxText(14),
    middleName: maxText(35).optional(),
    lastName: maxText(11),
    preferredName: maxText(26),
    gender: oneOf(['M', 'F', 'O']),
    dateOfBirth: text().refine(isCalendarDate, 'must be a real date in the form YYYY-MM-DD'),
    mobileCountryName: country().optional(),
    mobileCountryCode: text().refine((v) => /^\d+$/.test(v), 'must contain digits only, without a plus sign'),
    mobile: text().refine((v) => /^\d{8,12}$/.test(v), 'must be 8 to 12 digits, without the country code'),
    nationality: country(),
    email: text().refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'must be an e-mail address'),
    deliveryAddress1: line(),
    deliveryAddress2: line(),
    deliveryAddress3: line().optional(),
    deliveryAddress4: line().optional(),
    deliveryCity: text(),
    deliveryState: maxText(20),
    deliveryCountry: country(),
    deliveryZipCode: text(),
    billingAddress1: line(),
    billingAddress2: line(),
    billingAddress3: line().optional(),
    billingAddress4: line().optional(),
    billingCity: text(),
    billingState: maxText(20),
    billingCountry: country(),
    billingZipCode: text(),
    kycProviderName: oneOf(['SUMSUB', 'MYINFO', 'JUMIO', 'DIDIT']).optional(),
    kycReferenceId: text().optional(),
  };
}

/** Body of POST /cardholder; fields the spec does not list are dropped. */
export const CreateCardholderBody = z.object(shape('create'));
/** Body of PATCH /cardholder: any subset of the fields, update charset for addresses. */
export const UpdateCardholderBody = z.object(shape('update')).partial();

export type CreateCardholderInput = z.infer<typeof CreateCardholderBody>;
export type UpdateCardholderInput = z.infer<typeof UpdateCardholderBody>;
