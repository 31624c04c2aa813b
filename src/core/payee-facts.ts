import { z } from 'zod';
import { MoneySchema } from './money-schema.js';
import {
  PayeeActorSchema,
  PayeeChangeSchema,
  type PayeeDirectory,
  PayeeVerificationSchema,
} from './payees.js';
import type { PayeeControlFacts } from './policy/payee-controls.js';

// Spelled here: the approvals' view schema imports this module.

/**
 * What the core knows of a payee from its own records, as every money approval carries it: how it
 * came into the directory, the payouts to it so far, every change that pointed its name at bank
 * details, and whether its details were confirmed by a call-back since the last change.
 */
export const PayeeHistorySchema = z.object({
  /** The first directory entry: created through bankops, or named after it was made elsewhere. */
  created: z
    .object({
      kind: z.enum(['created', 'named']),
      at: z.string(),
      by: PayeeActorSchema,
      approvalId: z.string().optional(),
    })
    .optional(),
  payouts: z.object({
    count: z.number().int(),
    totals: z.array(MoneySchema),
    first: z.string().optional(),
    last: z.string().optional(),
  }),
  /** Changes that moved a name to these bank details or renamed them, oldest first. */
  changes: z.array(PayeeChangeSchema),
  /** When the name last came to point at these bank details (the start of any cooling-off). */
  changedAt: z.string().optional(),
  /** The people who created or changed it: none of them may verify it. */
  changedBy: z.array(z.string()),
  verification: PayeeVerificationSchema.optional(),
});
export type PayeeHistory = z.infer<typeof PayeeHistorySchema>;

/** The payee's history, read from the directory and its payouts. */
export async function payeeHistory(directory: PayeeDirectory, id: string): Promise<PayeeHistory> {
  const [payee, payouts] = await Promise.all([directory.get(id), directory.payouts(id)]);
  const changes = payee?.changes ?? [];
  const first = changes[0];
  const last = changes.at(-1);
  const history: PayeeHistory = {
    payouts,
    changes: changes.filter((change, i) => i > 0 || change.before !== undefined),
    changedBy: [...new Set(changes.map((change) => change.by.person))],
  };
  if (first !== undefined) {
    history.created = {
      kind: first.kind,
      at: first.at,
      by: first.by,
      ...(first.approvalId === undefined ? {} : { approvalId: first.approvalId }),
    };
  }
  if (last !== undefined) history.changedAt = last.at;
  // A verification holds only for the details it confirmed: a later change undoes it.
  const verified = payee?.verification;
  if (verified !== undefined && (last === undefined || verified.at >= last.at))
    history.verification = verified;
  return history;
}

/** What the payee controls weigh (src/core/policy/payee-controls.ts), read before the evaluator runs. */
export async function payeeControlFacts(directory: PayeeDirectory, id: string): Promise<PayeeControlFacts> {
  const [payee, history] = await Promise.all([directory.get(id), payeeHistory(directory, id)]);
  return {
    id,
    name: payee?.name,
    firstPayment: history.payouts.count === 0,
    changedAt: history.changedAt,
    verified: history.verification !== undefined,
  };
}
