import { z } from 'zod';
import {
  CorridorJsonSchemaSchema,
  CorridorOptionSchema,
  CreatedBeneficiarySchema,
  EntityTypeSchema,
  PaymentMethodSchema,
} from '../../core/client/schemas/beneficiaries.js';
import { optional } from '../../core/optional.js';
import { maskAccount, nameKey, type Payee } from '../../core/payees.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import { nameMovesWords, recordChange } from '../shared/payee-change.js';
import { BeneficiaryInputSchema } from './beneficiary-input.js';
import { currencyCode } from './fields.js';

const READ = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const;

export const listBeneficiaryOptions = defineTool({
  name: 'list_beneficiary_options',
  title: 'List beneficiary corridors',
  description:
    'Lists the corridors where payees can be registered (currency, bank country, entity type, payment method). Then get_beneficiary_schema and create_beneficiary.',
  toolset: 'banking',
  input: z.object({
    currency: currencyCode.optional().describe('Only corridors of this currency, e.g. USD.'),
  }),
  output: z.object({ options: z.array(CorridorOptionSchema).describe('The corridors offered.') }),
  hints: READ,
  async run(input, ctx) {
    const options = await ctx.client.beneficiaries.options(
      input.currency === undefined ? {} : { currency: input.currency },
      readOptions(ctx),
    );
    return { options };
  },
});

/** The rails a corridor schema offers, from `bank.extras.clearingSystem` (an enum or a const). */
function clearingSystemsOf(schema: unknown): string[] {
  let node: unknown = schema;
  for (const key of ['properties', 'bank', 'properties', 'extras', 'properties', 'clearingSystem']) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (typeof node !== 'object' || node === null) return [];
  const { enum: values, const: only } = node as { enum?: unknown; const?: unknown };
  const list = Array.isArray(values) ? values : only === undefined ? [] : [only];
  return list.filter((value): value is string => typeof value === 'string');
}

export const getBeneficiarySchema = defineTool({
  name: 'get_beneficiary_schema',
  title: 'Get beneficiary corridor schema',
  description:
    'Returns the JSON Schema of a create_beneficiary request in one corridor, and its rails (clearingSystems). Call without clearingSystem for the rails, then with one for its exact rules.',
  toolset: 'banking',
  input: z.object({
    currency: currencyCode.describe('Currency the payee receives, e.g. USD.'),
    entityType: EntityTypeSchema.describe('INDIVIDUAL or COMPANY payee.'),
    paymentMethod: PaymentMethodSchema.describe('LOCAL or SWIFT.'),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be a 2-letter upper-case country code, e.g. US')
      .optional()
      .describe("Payee bank's country (ISO 2-letter), when outside the currency's home country."),
    clearingSystem: z
      .string()
      .min(1)
      .optional()
      .describe('Rail from clearingSystems of a first call, e.g. ACH or FEDWIRE.'),
  }),
  output: z.object({
    schema: CorridorJsonSchemaSchema.describe('JSON Schema (draft 2020-12) of the beneficiary request.'),
    clearingSystems: z
      .array(z.string())
      .describe('Rails of the corridor (bank.extras.clearingSystem); may be empty.'),
  }),
  hints: READ,
  async run(input, ctx) {
    const schema = await ctx.client.beneficiaries.schema(
      {
        currency: input.currency,
        entityType: input.entityType,
        paymentMethod: input.paymentMethod,
        ...optional('country', input.country),
        ...optional('clearingSystem', input.clearingSystem),
      },
      readOptions(ctx),
    );
    return { schema, clearingSystems: clearingSystemsOf(schema) };
  },
});

export const createBeneficiary = defineTool({
  name: 'create_beneficiary',
  title: 'Register a beneficiary',
  description:
    "Registers a payee for payouts; returns its beneficiary_id. Checked against the corridor's schema (get_beneficiary_schema) first; leave out fields that do not apply. Cannot be changed or deleted.",
  toolset: 'banking',
  input: BeneficiaryInputSchema,
  output: CreatedBeneficiarySchema,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  // Under the payee-directory rule: approvers read who would be paid, and whether the name is
  // already known for other bank details (a change of bank details for that name).
  async preview(input, ctx) {
    await ctx.client.beneficiaries.check(
      { ...input, companyCode: input.companyCode ?? ctx.defaults.companyCode },
      readOptions(ctx),
    );
    const payee = payeeOf('(new)', input);
    const where = [payee.country, payee.currency, payee.rail, payee.accountMasked].filter(Boolean).join(', ');
    const known = payee.name === undefined ? undefined : await ctx.payees?.all();
    const same = known?.find((p) => p.name !== undefined && nameKey(p.name) === nameKey(payee.name ?? ''));
    const moves = nameMovesWords(same);
    return {
      summary: `Register the payee ${payee.name ?? '(no name)'} (${where})${moves}`,
      details: { name: payee.name ?? null, where, ...(same === undefined ? {} : { nameAlsoOn: same.id }) },
    };
  },
  async run(input, ctx) {
    const created = await ctx.client.beneficiaries.create(
      { ...input, companyCode: input.companyCode ?? ctx.defaults.companyCode },
      writeOptions(ctx),
    );
    // The service has no read endpoint for beneficiaries: approvers of a payout learn who the
    // payee is from what bankops kept when it created it.
    if (ctx.payees !== undefined)
      await recordChange(ctx.payees, payeeOf(created.beneficiary_id, input), 'created', ctx);
    return created;
  },
});

/** What approvers need to recognise a payee: its name, where and how it is paid, masked account. */
function payeeOf(id: string, input: z.infer<typeof BeneficiaryInputSchema>): Payee {
  const person = [input.firstName, input.lastName].filter((part) => part?.trim()).join(' ');
  const name =
    input.displayName?.trim() || input.companyName?.trim() || person || input.bank.accountHolder?.trim();
  const clearing = input.bank.extras?.clearingSystem?.trim();
  const method = input.extras.paymentMethod;
  const country = input.bank.bankCountry?.trim() || input.country?.trim() || input.address?.country?.trim();
  const masked = maskAccount(input.bank.accountNumber ?? input.bank.iban);
  return {
    id,
    ...(name ? { name } : {}),
    entityType: input.entityType,
    ...(country ? { country: country.toUpperCase() } : {}),
    currency: input.currency,
    rail: clearing && clearing !== method ? `${method}/${clearing}` : method,
    ...optional('accountMasked', masked),
  };
}
