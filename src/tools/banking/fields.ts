import { z } from 'zod';
import { currencyCodeField } from '../shared/codes.js';
import { idString } from '../shared/ids.js';

/** Input fields shared by the banking tools; each carries its own description. */

// Upper case only: the service's currency filter refuses `usd`, and a rule here names the field.
export const currencyCode = currencyCodeField();

export const companyCodeField = z
  .string()
  .min(1)
  .optional()
  .describe('Company code (configured by default).');

export const accountIdField = idString().describe('Account id.');

export const amountField = z.number().positive().describe('E.g. 1250.5 (currency units, not minor units).');

export const sideField = z
  .enum(['SOURCE', 'TARGET'])
  .describe('SOURCE: amount is debited; TARGET: amount is received.');

export const clientReferenceField = z
  .string()
  .trim()
  .min(1)
  .optional()
  .describe('Your own reference, returned as externalReference.');
