import { z } from 'zod';

/** A money amount: a JSON number greater than 0 with at most two decimals (cents). */
export const MoneyAmount = z
  .number({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a number') })
  .refine((v) => Number.isFinite(v) && v > 0, 'must be greater than 0')
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'must have at most 2 decimal places');
