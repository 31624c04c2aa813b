type JsonSchema = Record<string, unknown>;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Drops what says nothing to an assistant and costs context on every tools/list, keeping every
 * description, enum, `required` and every pattern that tells how to write a value:
 * - `$schema` (MCP's default dialect is 2020-12, which the registry writes);
 * - `additionalProperties: {}` and `propertyNames: {type: string}` (what JSON allows anyway), and in
 *   outputs `additionalProperties: false` (an assistant reads outputs, it does not write them);
 * - zod's safe-integer bounds on `.int()` and `minLength: 1` (an empty string is no value anywhere
 *   here; the executor still enforces both);
 * - a field's description that only says its name again (`deliveryCity`: "Delivery city."), a
 *   description that only lists the values of its own `enum` (the enum says it once), and
 *   `type: string` beside an enum of strings or a `const` string, or a `pattern` beside
 *   `format: email` (zod writes both; the enum, the const and the format say it).
 */
export function compactSchema(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => compactSchema(item, io));
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  const record = node as JsonSchema;
  for (const [key, value] of Object.entries(record)) {
    if (key === '$schema') continue;
    if (key === 'maximum' && value === MAX_SAFE) continue;
    if (key === 'minimum' && value === -MAX_SAFE) continue;
    if (key === 'minLength' && value === 1) continue;
    if (key === 'additionalProperties' && isEmptyObject(value)) continue;
    if (key === 'additionalProperties' && value === false && io === 'output') continue;
    if (key === 'propertyNames' && isStringOnly(value)) continue;
    if (key === 'description' && restatesEnum(value, record.enum)) continue;
    if (key === 'type' && value === 'string' && isStringEnum(record.enum)) continue;
    if (key === 'type' && typeof value === 'string' && value === typeof record.const) continue;
    if (key === 'pattern' && record.format === 'email') continue;
    // Under these the keys are names (a field may be called `maximum`), not keywords.
    out[key] = NAMED.has(key) ? compactNamed(value, io) : compactSchema(value, io);
  }
  return out;
}

const NAMED = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

function compactNamed(value: unknown, io: 'input' | 'output'): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([field, schema]) => [
      field,
      withoutNameRestated(field, compactSchema(schema, io)),
    ]),
  );
}

/** Words that add nothing to a field's name ("Delivery address line 2." for `deliveryAddress2`). */
const FILLER = new Set(['the', 'a', 'an', 'of', 'its', 'line']);

const wordsOf = (text: string): string[] =>
  text
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !FILLER.has(word));

/**
 * The field's schema without a description that only says its name again ("Delivery city." for
 * `deliveryCity`): an assistant reads the name beside it. People's help keeps it.
 */
function withoutNameRestated(field: string, schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const { description, ...rest } = schema as JsonSchema;
  if (typeof description !== 'string') return schema;
  const name = new Set(wordsOf(field));
  const words = wordsOf(description);
  return words.length > 0 && words.every((word) => name.has(word)) ? rest : schema;
}

/** "DAY, WEEK or MONTH." next to `enum: [DAY, WEEK, MONTH]` says nothing the enum does not. */
function restatesEnum(description: unknown, values: unknown): boolean {
  if (typeof description !== 'string' || !Array.isArray(values)) return false;
  const words = description
    .replace(/[.,;:]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && word !== 'or' && word !== 'and');
  return words.length > 0 && words.every((word) => values.includes(word));
}

const isStringEnum = (values: unknown): boolean =>
  Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === 'string');

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

const isStringOnly = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 1 &&
  (value as { type?: unknown }).type === 'string';
