import { z } from 'zod';
import { notConfigured } from '../../core/errors.js';
import { InputError } from '../../core/input-error.js';
import { nameKey, type Payee, PayeeChangeSchema, payeeNamed } from '../../core/payees.js';
import { defineTool } from '../../core/tool.js';
import { idString } from '../shared/ids.js';
import { nameMovesWords, recordChange } from '../shared/payee-change.js';

/**
 * A name payees are matched by already (case and spaces aside): no change of bank details, and
 * approving one would only restart the cooling-off and undo a call-back for nothing.
 */
function refuseSameName(beneficiaryId: string, earlier: Payee | undefined, name: string): void {
  if (earlier?.name !== undefined && nameKey(earlier.name) === nameKey(name))
    throw new InputError(
      'name',
      `${beneficiaryId} is named '${earlier.name}' already (names are matched ignoring case and spaces): nothing to change`,
    );
}

/**
 * Gives a beneficiary made outside bankops (or by another bankops) its name, so approvals name the
 * payee instead of "a payee bankops did not create". A change of the payee directory like any
 * other: audited, it starts the cooling-off and leaves the payee unverified.
 */
export const namePayee = defineTool({
  name: 'name_payee',
  title: 'Name a payee',
  description:
    "Gives a beneficiary id a name in bankops's payee directory (for beneficiaries created outside bankops). A change of bank details for that name: the payee is unverified again and a payee cooling-off starts.",
  toolset: 'banking',
  input: z.object({
    beneficiaryId: idString().describe('The beneficiary id at the service.'),
    name: z
      .string()
      .trim()
      .overwrite((value) => value.replace(/\s+/g, ' '))
      .min(1)
      .max(140)
      .describe('The name approvers will see.'),
  }),
  output: z.object({ beneficiaryId: z.string(), name: z.string(), change: PayeeChangeSchema }),
  // bankops's own directory only; naming again replaces the name.
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  // Under the payee-directory rule: approvers read which bank details get the name, what they were
  // called, and whether the name is already known for other bank details.
  async preview({ beneficiaryId, name }, ctx) {
    const earlier = await ctx.payees?.get(beneficiaryId);
    refuseSameName(beneficiaryId, earlier, name);
    const where = [earlier?.country, earlier?.currency, earlier?.rail, earlier?.accountMasked].filter(
      Boolean,
    );
    const details = where.length === 0 ? beneficiaryId : `${beneficiaryId} (${where.join(', ')})`;
    const was = earlier?.name === undefined ? '; bankops knew no name for it' : `; now named ${earlier.name}`;
    const same = ctx.payees === undefined ? undefined : await payeeNamed(ctx.payees, name, beneficiaryId);
    const moves = nameMovesWords(same);
    return {
      summary: `Name ${details} "${name}"${was}${moves}`,
      details: {
        name,
        beneficiaryId,
        ...(earlier?.name === undefined ? {} : { calledNow: earlier.name }),
        ...(same === undefined ? {} : { nameAlsoOn: same.id }),
      },
    };
  },
  async run({ beneficiaryId, name }, ctx) {
    if (ctx.payees === undefined) throw notConfigured('the payee directory is not available here');
    if (!/^\S/.test(name)) throw new InputError('name', 'must not be empty');
    const earlier = await ctx.payees.get(beneficiaryId);
    refuseSameName(beneficiaryId, earlier, name);
    const change = await recordChange(ctx.payees, { ...earlier, id: beneficiaryId, name }, 'named', ctx);
    return { beneficiaryId, name, change };
  },
});
