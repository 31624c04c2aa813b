import { meant } from './meant.js';
import type { FieldError } from './results.js';

/**
 * Top-level fields of an input that the tool's schema does not have. The schema would drop them
 * silently, so a misspelt optional field (`accountid`) would be ignored and the call run without
 * it; the executor refuses them instead, naming the field meant when one is close.
 */
export function unknownFields(input: unknown, known: readonly string[]): FieldError[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  return Object.keys(input)
    .filter((field) => !known.includes(field))
    .map((field) => {
      const close = meant(field, known);
      return {
        path: field,
        message:
          close.length === 0
            ? `unknown field; the fields are ${known.join(', ')}`
            : `unknown field; did you mean ${orList(close)}?`,
      };
    });
}

const orList = (values: readonly string[]): string =>
  values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
