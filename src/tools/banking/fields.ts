import { z } from 'zod';
import { idString } from '../shared/ids.js';

/** Input fields shared by the banking tools; each carries its own description. */

// Upper case only: the service's currency filter refuses `usd`, and a rule here names the field.
export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be a 3-letter upper-case currency code, e.g. USD');

export const companyCodeField = z
  .string()
  .min(1)
  .optional()
  .describe('Company code; defaults to the configured company.');

export const accountIdField = idString().describe('Account id, e.g. acc_usd_0001 (from list_accounts).');

export const amountField = z
  .number()
  .positive()
  .describe('Amount as a decimal number in the currency units, e.g. 1250.5 (not minor units).');

export const sideField = z
  .enum(['SOURCE', 'TARGET'])
  .describe('SOURCE: amount is in the source (debited) currency; TARGET: in the target (received) currency.');
