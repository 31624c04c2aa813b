import { z } from 'zod';
import { fromMinor } from '../money.js';
import type { BalanceAlert } from './store.js';

/**
 * A balance alert as tools answer with it and front ends show it: the threshold in currency units,
 * where the balance stood at the last check; not the store's bookkeeping (its post count).
 */
export const AlertViewSchema = z.object({
  id: z.string(),
  currency: z.string(),
  below: z.number().describe('The threshold, in currency units.'),
  channel: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  level: z.enum(['unknown', 'above', 'below']).describe('The balance at the last check.'),
  readFailing: z.boolean(),
  checkedAt: z.string().nullable(),
});
export type AlertView = z.infer<typeof AlertViewSchema>;

export const alertView = (alert: BalanceAlert): AlertView => ({
  id: alert.id,
  currency: alert.currency,
  below: fromMinor(alert.thresholdMinor, alert.currency).amount,
  channel: alert.channel,
  createdBy: alert.createdBy,
  createdAt: alert.createdAt,
  level: alert.level,
  readFailing: alert.readFailing,
  checkedAt: alert.checkedAt,
});
