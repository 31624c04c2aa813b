import { z } from 'zod';
import { isCountryCode } from '../../countries.js';
import { isCalendarDate } from '../../validate.js';

/**
 * Field rules of family A bodies, with messages that name the rule and never repeat the value
 * (some values, like PINs and card numbers, are secrets).
 */

const orRequired =
  (message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is required' : message;

/** A required, non-blank string. */
export const text = () =>
  z.string({ error: orRequired('must be a string') }).refine((v) => v.trim() !== '', 'must not be empty');

/** A fixed value the spec allows alone (`VIRTUAL`, `COMMERCIAL`, ...). */
export const only = <T extends string>(value: T, why = '') =>
  z.literal(value, { error: orRequired(`must be ${value}${why === '' ? '' : ` (${why})`}`) });

export const object = <S extends z.ZodRawShape>(shape: S) =>
  z.object(shape, { error: orRequired('must be an object') });

export const email = () =>
  z.email({ error: orRequired('must be a valid email address') }).max(254, 'must be at most 254 characters');

export const countryCode = () =>
  z
    .string({ error: orRequired('must be a string') })
    .refine(isCountryCode, 'must be a 2-letter ISO 3166-1 country code (e.g. SG, US)');

export const currencyCode = () =>
  z
    .string({ error: orRequired('must be a string') })
    .regex(/^[A-Z]{3}$/, 'must be a 3-letter uppercase currency code (e.g. USD)');

/** Digits only; the spec gives no length for family A, so the E.164 maximum of 15 is used. */
export const mobileNumber = () =>
  z
    .string({ error: orRequired('must be a string of digits') })
    .regex(/^\d{4,15}$/, 'must be 4 to 15 digits, without the country code or a plus sign');

const ENGLISH_NAME = /^[A-Za-z](?:[A-Za-z .'-]*[A-Za-z.])?$/;
/** "English characters only": letters, spaces, hyphen, apostrophe and period. */
export const englishName = () =>
  z
    .string({ error: orRequired('must be a string') })
    .regex(ENGLISH_NAME, 'must use English letters only (A-Z, a-z, spaces, hyphen, apostrophe, period)');

export const calendarDate = () =>
  z
    .string({ error: orRequired('must be a string') })
    .refine(isCalendarDate, 'must be a real date in the form YYYY-MM-DD');

/** PINs: the spec gives no length; 4 to 6 digits, as strings so leading zeros survive. */
export const pin = () =>
  z
    .string({ error: orRequired('must be a string of 4 to 6 digits') })
    .regex(/^\d{4,6}$/, 'must be 4 to 6 digits');
