import { z } from 'zod';
import { CodedError, ErrorCode, notConfigured } from '../../core/errors.js';
import { InputError } from '../../core/input-error.js';
import { meant } from '../../core/meant.js';
import { payeeHistory } from '../../core/payee-facts.js';
import { nameKey, type Payee, type PayeeDirectory, PayeeVerificationSchema } from '../../core/payees.js';
import { defineTool } from '../../core/tool.js';

/** A telephone number: digits and the signs people write them with, then an extension. */
const TELEPHONE = /^\+?[\d\s().-]+(?:\s*(?:ext\.?|x)\s*\d+)?$/i;

/** The digits of the number itself, without its extension: what is called back. */
const digitsOf = (contact: string): string =>
  contact.replace(/\s*(?:ext\.?|x)\s*\d+$/i, '').replace(/\D/g, '');

/**
 * The payee a text names: a beneficiary id, else the one payee of that name (case-insensitive,
 * spaces collapsed). A name two payees share is refused (a call-back confirms one set of bank
 * details: which one is not for bankops to guess), and one nobody has gets the names meant.
 */
async function payeeOf(directory: PayeeDirectory, text: string): Promise<Payee> {
  const byId = await directory.get(text.trim());
  if (byId !== undefined) return byId;
  const all = await directory.all();
  const key = nameKey(text);
  const named = all.filter((p) => p.name !== undefined && nameKey(p.name) === key);
  const [only] = named;
  if (named.length > 1) {
    const which = named.map((p) => [p.id, p.accountMasked].filter(Boolean).join(' ')).join(', ');
    throw new InputError(
      'payee',
      `'${text}' names ${named.length} payees (${which}): give the beneficiary id of the bank details you called back about`,
    );
  }
  if (only !== undefined) return only;
  const close = meant(
    text,
    all.flatMap((p) => (p.name === undefined ? [p.id] : [p.name, p.id])),
  );
  const hint = close.length === 0 ? '' : `; did you mean ${close.map((c) => `'${c}'`).join(' or ')}?`;
  throw new InputError('payee', `no payee '${text}' in the payee directory (an id or a name)${hint}`);
}

/**
 * The call-back: a person with the role `verifier` (the policy's rule) confirms a payee's bank
 * details by calling a number already on file, and records it. Never by the person who created or
 * changed the payee. A later change of the payee undoes it.
 */
export const verifyPayee = defineTool({
  name: 'verify_payee',
  title: 'Verify a payee by call-back',
  description:
    "Records that a payee's bank details were confirmed by calling a number already on file (not one from the request). Not by whoever created or changed the payee; a later change makes it unverified again.",
  toolset: 'banking',
  input: z.object({
    payee: z.string().trim().min(1).describe('Beneficiary id or payee name.'),
    method: z.literal('callback').describe('callback: a call to a number already on file.'),
    contact: z
      .string()
      .trim()
      .min(4)
      .max(40)
      .refine(
        (value) => TELEPHONE.test(value),
        'must be a telephone number: digits, spaces, + ( ) . -, an extension as "ext 12"',
      )
      .refine((value) => digitsOf(value).length >= 4, 'must have at least four digits')
      .describe('The number called, as on file.'),
    note: z.string().trim().min(1).max(500).describe('Who answered and what they confirmed.'),
  }),
  output: z.object({
    beneficiaryId: z.string(),
    name: z.string().optional(),
    verification: PayeeVerificationSchema,
  }),
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run({ payee, method, contact, note }, ctx) {
    const directory = ctx.payees;
    if (directory === undefined) throw notConfigured('the payee directory is not available here');
    const found = await payeeOf(directory, payee);
    const by = ctx.by ?? { actorId: ctx.actorName, person: ctx.actorName, frontEnd: 'unknown' };
    const history = await payeeHistory(directory, found.id);
    if (history.changedBy.includes(by.person)) {
      throw new CodedError({
        code: ErrorCode.InvalidRequest,
        message: `${by.person} created or changed ${found.name ?? found.id}: another verifier calls back`,
      });
    }
    const verification = {
      method,
      at: (ctx.now?.() ?? new Date()).toISOString(),
      by,
      contactMasked: `••••${digitsOf(contact).slice(-4)}`,
      note,
    };
    await directory.remember({ ...found, verification });
    return {
      beneficiaryId: found.id,
      ...(found.name === undefined ? {} : { name: found.name }),
      verification,
    };
  },
});
