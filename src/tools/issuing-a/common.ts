import { z } from 'zod';
import type { ToolHints } from '../../core/tool.js';
import { countryCodeField, currencyCodeField } from '../shared/codes.js';
import { idString } from '../shared/ids.js';

export { FAMILY_A } from '../shared/families.js';

export const READ: ToolHints = { readOnly: true, destructive: false, idempotent: true, openWorld: true };
/** A create or an action (POST): a second call creates a second one or is refused. */
export const WRITE: ToolHints = { readOnly: false, destructive: false, idempotent: false, openWorld: true };
/** A change whose repeat with the same input has no further effect. */
export const UPDATE: ToolHints = { readOnly: false, destructive: false, idempotent: true, openWorld: true };

/**
 * `schema.optional()` keeping its description on the outer schema, where front ends read it
 * (zod 4 keeps `.describe()` on the inner schema only).
 */
export function opt<S extends z.ZodType>(schema: S): z.ZodOptional<S> {
  const optional = schema.optional();
  return schema.description === undefined ? optional : optional.describe(schema.description);
}

/** Every field of a shape made optional, descriptions kept (update inputs). */
export function optionalShape<S extends Record<string, z.ZodType>>(
  shape: S,
): { [K in keyof S]: z.ZodOptional<S[K]> } {
  const out: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(shape)) out[key] = opt(field);
  return out as { [K in keyof S]: z.ZodOptional<S[K]> };
}

const id = (what: string) => idString().describe(what);

export const cardholderIdField = id('Cardholder id.');
// Ids say only what they are: where each comes from is in the tools' descriptions and said once to
// assistants; no format is promised (the sandbox's `card_…` is its own).
export const cardIdField = id('Card id.');
export const walletIdField = id('Wallet id.');

export const currencyField = (what: string) => currencyCodeField().describe(what);

export const countryField = (what: string) => countryCodeField().describe(what);

export const pageField = (what: string) => opt(z.number().int().min(1).describe(what));
export const sizeField = (what: string) => opt(z.number().int().min(1).describe(what));

export const YMD = /^\d{4}-\d{2}-\d{2}$/;
export const YMD_MESSAGE = 'must be a date YYYY-MM-DD';

/** The spec's `individual.address` fields, flat so every front end can fill them (Slack, CLI flags). */
export const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'state', 'country', 'postcode'] as const;
/** What the service needs whenever an address is given: it replaces the whole address. */
export const ADDRESS_REQUIRED = ['line1', 'city', 'state', 'country', 'postcode'] as const;

export const addressShape = {
  line1: z.string().trim().min(1).describe('Street and number.'),
  line2: opt(z.string().trim().min(1).describe('Address line 2.')),
  city: z.string().trim().min(1).describe('City.'),
  state: z.string().trim().min(1).describe('State or region.'),
  country: countryField('Address country, ISO 2-letter code.'),
  postcode: z.string().trim().min(1).describe('Postal code.'),
};

/** The spec's `individual.name` fields, flat like the address. */
export const NAME_FIELDS = ['title', 'first_name', 'middle_name', 'last_name', 'name_on_card'] as const;
export const NAME_REQUIRED = ['first_name', 'last_name'] as const;

export const nameShape = {
  title: opt(z.string().trim().min(1).describe('Title, e.g. Mr, Ms, Dr.')),
  first_name: z.string().trim().min(1).describe('First name, English letters only.'),
  middle_name: opt(z.string().trim().min(1).describe('Middle name.')),
  last_name: z.string().trim().min(1).describe('Last name, English letters only.'),
  name_on_card: opt(z.string().trim().min(1).describe('Name printed on cards.')),
};

/** The key-value pairs of `source` for `keys` that are set, for building a request body. */
export function pick<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): { [P in K]?: Exclude<T[P], undefined> } {
  const out: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== undefined) out[key] = value as Exclude<T[K], undefined>;
  }
  return out;
}
