import { z } from 'zod';
import { notConfigured } from '../../core/errors.js';
import { InputError } from '../../core/input-error.js';
import { PayeeChangeSchema } from '../../core/payees.js';
import { defineTool } from '../../core/tool.js';
import { idString } from '../shared/ids.js';
import { recordChange } from '../shared/payee-change.js';

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
    name: z.string().trim().min(1).max(140).describe('The name approvers will see.'),
  }),
  output: z.object({ beneficiaryId: z.string(), name: z.string(), change: PayeeChangeSchema }),
  // bankops's own directory only; naming again replaces the name.
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run({ beneficiaryId, name }, ctx) {
    if (ctx.payees === undefined) throw notConfigured('the payee directory is not available here');
    if (!/^\S/.test(name)) throw new InputError('name', 'must not be empty');
    const earlier = await ctx.payees.get(beneficiaryId);
    const change = await recordChange(ctx.payees, { ...earlier, id: beneficiaryId, name }, 'named', ctx);
    return { beneficiaryId, name, change };
  },
});
