import { CodedError, ErrorCode, messageOf } from '../core/errors.js';
/**
 * The one input grammar of the front ends that people type into (the CLI's arguments, Slack's
 * `/bank <tool> key=value …`): `key=value` pairs, dotted keys for nested fields
 * (`address.city="New York"`), JSON for arrays and objects. Values are read as the tool's input
 * schema says: a string field keeps `007` as typed, a number field gets a number, a boolean field
 * `true`/`false`. What the schema cannot place stays a string, for the executor to judge (an
 * unknown field is refused there, naming the one meant).
 */

export type JsonSchema = Record<string, unknown>;

/** A token that is not `key=value`, a key given twice, bad JSON: said in one line naming the token. */
export class ArgsError extends CodedError {
  constructor(message: string) {
    super({ code: ErrorCode.Usage, message });
    this.name = 'ArgsError';
  }
}

/** Slack and phones turn straight quotes into typographic ones; both are quotes here. */
const OPENING: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '”': '”', '’': '’' };

/**
 * Splits typed text the way a shell would: spaces separate, `"…"` and `'…'` quote (typographic
 * quotes too), a backslash escapes the next character outside single quotes.
 */
export function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i] ?? '';
    if (quote !== undefined) {
      if (char === quote || (quote === '”' && char === '"')) quote = undefined;
      else if (char === '\\' && quote !== "'" && i + 1 < line.length) current += line[++i];
      else current += char;
      continue;
    }
    if (/\s/.test(char)) {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
      continue;
    }
    inToken = true;
    const closing = OPENING[char];
    if (closing !== undefined) quote = closing;
    else if (char === '\\' && i + 1 < line.length) current += line[++i];
    else current += char;
  }
  if (quote !== undefined) throw new ArgsError(`a quote (${quote}) is not closed`);
  if (inToken) tokens.push(current);
  return tokens;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** The types a schema node allows, looking through `anyOf`/`oneOf` (optional and nullable fields). */
function typesOf(node: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (node === undefined) return types;
  const type = node.type;
  if (typeof type === 'string') types.add(type);
  if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') types.add(t);
  if (Array.isArray(node.enum)) for (const value of node.enum) types.add(typeof value);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = node[key];
    if (Array.isArray(options)) for (const option of options) for (const t of typesOf(option)) types.add(t);
  }
  return types;
}

/** The schema of the field at a dotted path, through nested objects; undefined where unknown. */
function fieldSchema(schema: JsonSchema, path: readonly string[]): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const segment of path) {
    const candidates: JsonSchema[] = [node ?? {}];
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const options = node?.[key];
      if (Array.isArray(options)) candidates.push(...(options as JsonSchema[]));
    }
    node = undefined;
    for (const candidate of candidates) {
      const properties = candidate.properties as Record<string, JsonSchema> | undefined;
      if (properties !== undefined && Object.hasOwn(properties, segment)) {
        node = properties[segment];
        break;
      }
    }
    if (node === undefined) return undefined;
  }
  return node;
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
/** `1,000` and `1,250,000.50`: commas only as thousands separators, in groups of three. */
const GROUPED = /^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * A number as a person types it, the same in every front end: `1000`, `1,000.50` (commas between
 * groups of three only), `-5`, `1e3`; undefined for anything else (`1,00`, `1.000,5`, `ten`).
 */
export function readNumber(raw: string): number | undefined {
  const text = raw.trim();
  if (NUMBER.test(text)) return Number(text);
  if (GROUPED.test(text)) return Number(text.replaceAll(',', ''));
  return undefined;
}

/** One value as its field's schema says; what does not fit stays as typed, for the executor to refuse. */
function valueFor(key: string, raw: string, field: JsonSchema | undefined): unknown {
  const types = typesOf(field);
  const structured = types.has('object') || types.has('array');
  if (structured && (raw.startsWith('{') || raw.startsWith('['))) {
    try {
      return JSON.parse(raw);
    } catch (error) {
      throw new ArgsError(`${key}: not valid JSON (${messageOf(error)})`);
    }
  }
  if (types.has('string')) return raw;
  if (types.has('number') || types.has('integer')) {
    const number = readNumber(raw);
    if (number !== undefined) return number;
  }
  if (types.has('boolean') && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (types.has('null') && raw === 'null') return null;
  return raw;
}

/**
 * `key=value` tokens into a tool input, read against the tool's input JSON Schema. Keys may be
 * dotted (`address.city`); a key given twice, or a field set both whole and by parts, is refused.
 */
export function inputFromArgs(tokens: readonly string[], schema: JsonSchema): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const token of tokens) {
    const at = token.indexOf('=');
    if (at <= 0) {
      throw new ArgsError(
        at === 0
          ? `'${token}' has no field name before =`
          : `'${token}' is not key=value (e.g. cardId=card_123)`,
      );
    }
    const key = token.slice(0, at);
    const path = key.split('.');
    if (path.some((segment) => segment === '' || FORBIDDEN.has(segment)))
      throw new ArgsError(`'${key}' is not a field name`);
    if (seen.has(key)) throw new ArgsError(`${key} is given twice`);
    seen.add(key);
    setAt(input, path, valueFor(key, token.slice(at + 1), fieldSchema(schema, path)), key);
  }
  return input;
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown, key: string): void {
  let node = target;
  for (const [i, segment] of path.entries()) {
    if (i === path.length - 1) {
      if (Object.hasOwn(node, segment)) throw new ArgsError(`${key} is given twice (whole and by its parts)`);
      node[segment] = value;
      return;
    }
    const next = node[segment];
    if (next === undefined) {
      const created: Record<string, unknown> = {};
      node[segment] = created;
      node = created;
    } else if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as Record<string, unknown>;
    } else {
      throw new ArgsError(`${key}: ${path.slice(0, i + 1).join('.')} is already given as a value`);
    }
  }
}
