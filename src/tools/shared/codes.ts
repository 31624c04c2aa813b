import { z } from 'zod';
import { isCountryCode, isCurrencyCode } from '../../core/iso.js';

/**
 * Currency and country fields, checked against the lists the spec names (ISO 4217, ISO 3166-1), so
 * `XYZ` is invalid input (nothing sent) rather than a refusal from the service.
 */

/** An upper-case ISO 4217 code: the service's currency filters refuse `usd`. */
export const currencyCodeField = () =>
  z
    .string()
    .regex(/^[A-Z]{3}$/, { message: 'must be a 3-letter upper-case currency code, e.g. USD', abort: true })
    .refine(isCurrencyCode, {
      error: (issue) => `is not an ISO 4217 currency code, got '${String(issue.input)}' (e.g. USD, EUR, GBP)`,
    });

/** A 2-letter ISO 3166-1 country code, either case. */
export const countryCodeField = () =>
  z
    .string()
    .regex(/^[A-Za-z]{2}$/, { message: 'must be a 2-letter ISO 3166-1 country code, e.g. SG', abort: true })
    .refine(isCountryCode, {
      error: (issue) => `is not an ISO 3166-1 country code, got '${String(issue.input)}' (e.g. US, DE, SG)`,
    });
