import type { z } from 'zod';
import type { AddressA, NameASchema } from '../../core/client/schemas/issuing-a.js';
import { ADDRESS_FIELDS, ADDRESS_REQUIRED, NAME_FIELDS, NAME_REQUIRED, pick } from './common.js';

type NameA = z.infer<typeof NameASchema>;
type Flat<K extends string> = { [P in K]?: string | undefined };

/** The flat address inputs as the spec's address object, or `undefined` when none was given. */
export function addressOf(input: Flat<(typeof ADDRESS_FIELDS)[number]>): AddressA | undefined {
  const { line1, city, state, country, postcode } = input;
  if (line1 === undefined || city === undefined || state === undefined) return undefined;
  if (country === undefined || postcode === undefined) return undefined;
  return { line1, city, state, country: country.toUpperCase(), postcode, ...pick(input, ['line2']) };
}

/** The flat name inputs as the spec's name object, or `undefined` when none was given. */
export function nameOf(input: Flat<(typeof NAME_FIELDS)[number]>): NameA | undefined {
  const { first_name, last_name } = input;
  if (first_name === undefined || last_name === undefined) return undefined;
  return { first_name, last_name, ...pick(input, ['title', 'middle_name', 'name_on_card']) };
}

/**
 * Issues for a composite object given in part: the service replaces a whole address or name, so
 * when any of its fields is given, the required ones must all be.
 */
export function missingParts(
  input: Record<string, unknown>,
  fields: readonly string[],
  required: readonly string[],
  what: string,
): { path: string[]; message: string }[] {
  if (!fields.some((field) => input[field] !== undefined)) return [];
  return required
    .filter((field) => input[field] === undefined)
    .map((field) => ({
      path: [field],
      message: `is required when ${what} is given (the service replaces the whole ${what})`,
    }));
}

export const ADDRESS = { fields: ADDRESS_FIELDS, required: ADDRESS_REQUIRED } as const;
export const NAME = { fields: NAME_FIELDS, required: NAME_REQUIRED } as const;
