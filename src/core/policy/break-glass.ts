import { z } from 'zod';
import { SomeCurrencyAmounts } from './payee-controls.js';

/**
 * `breakGlass:` (docs/approvals.md "Break-glass"): for the day approvers are unreachable, a person
 * holding `role` may run a pending money movement (an approval with a debit: payouts, conversions,
 * transfers) without its missing votes, below a cap of its own, with a reason; limits and cooling-off still apply. Each use leaves a review open until `review.people`
 * distinct holders of `review.role` (never the person who broke the glass nor the requester) close it. Off when absent.
 */
export const BreakGlassSchema = z.strictObject({
  /** Who may break the glass. */
  role: z.string().trim().min(1, 'must not be empty'),
  /** The most one break-glass may run, per currency of the approval's debit (`default` for the others). */
  max: SomeCurrencyAmounts,
  /** `passkey`: the person confirms with a passkey (refused from a front end that cannot ask for one). */
  stepUp: z.enum(['passkey']).optional(),
  /** Who closes the review of each use, and how many distinct people. */
  review: z
    .strictObject({
      role: z.string().trim().min(1, 'must not be empty').default('admin'),
      people: z
        .number()
        .int()
        .min(2, 'must be at least 2: a break-glass is reviewed by two people or more')
        .max(5)
        .default(2),
    })
    .default({ role: 'admin', people: 2 }),
});

export type BreakGlass = z.output<typeof BreakGlassSchema>;

/** The cap in this currency (major units), or undefined when the section caps none: refused. */
export function breakGlassCap(section: BreakGlass, currency: string): number | undefined {
  return section.max[currency] ?? section.max.default;
}
