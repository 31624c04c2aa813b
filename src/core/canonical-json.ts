import { internalError } from './errors.js';

/** A value that JSON can carry exactly. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * One byte sequence per value, so a hash or a fingerprint of the value is stable: object keys
 * sorted by UTF-16 code units (as RFC 8785 does), no whitespace, numbers and strings as
 * `JSON.stringify` writes them. `toJSON` is honoured (dates become ISO strings); `undefined`
 * properties are left out and `undefined` array items become `null`, like `JSON.stringify`.
 *
 * Unlike `JSON.stringify` it throws on values that JSON cannot carry faithfully (NaN, Infinity,
 * bigint, cycles): two different inputs silently becoming the same `null` would make two
 * different requests share a fingerprint.
 */
export function canonicalJson(value: unknown): string {
  const text = write(value, new Set());
  if (text === undefined) throw internalError('canonicalJson: the value has no JSON form');
  return text;
}

/**
 * Text that is already canonical JSON, written as it is: a large part serialized once (an audit
 * entry's input) can be reused inside the object that holds it.
 */
class CanonicalText {
  constructor(readonly text: string) {}
}

function write(value: unknown, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw internalError(`canonicalJson: ${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'bigint':
      throw internalError('canonicalJson: bigint has no JSON form; convert it to a string first');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      if (value === null) return 'null';
      return typeof value === 'object' ? writeObject(value, ancestors) : undefined;
  }
}

function writeObject(value: object, ancestors: Set<object>): string | undefined {
  if (value instanceof CanonicalText) return value.text;
  if (hasToJson(value)) return write(value.toJSON(), ancestors);
  if (ancestors.has(value)) throw internalError('canonicalJson: circular reference');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item: unknown) => write(item, ancestors) ?? 'null').join(',')}]`;
    }
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const text = write(record[key], ancestors);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

function hasToJson(value: object): value is { toJSON: () => unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
