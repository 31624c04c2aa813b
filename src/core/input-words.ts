import type { z } from 'zod';
import { meant } from './meant.js';

/**
 * zod's issues in our words, for every front end: "must be more than 0", not "Too small: expected
 * number to be >0"; an enum value close to one allowed names it ("did you mean SOURCE?") instead of
 * listing all 23. A message a tool's schema gives for a rule of its own is kept: zod puts it first.
 */

type Issue = z.core.$ZodRawIssue;

/** At most this many allowed values are listed; more are named by count, with the closest ones. */
const LISTED = 6;

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object (key=value pairs, or JSON)',
  array: 'a list (JSON, like ["a","b"])',
  date: 'a date',
  null: 'empty (null)',
};

const shown = (value: unknown): string => {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 39)}…` : value}'`;
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
};

const orList = (values: readonly string[]): string =>
  values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

function enumWords(issue: Issue & { values?: readonly unknown[] }): string | undefined {
  const values = (issue.values ?? []).map(String);
  if (values.length === 0) return undefined;
  const typed = typeof issue.input === 'string' ? issue.input : undefined;
  const close = typed === undefined || typed.trim() === '' ? [] : meant(typed.trim(), values);
  const hint = close.length === 0 ? '' : `; did you mean ${orList(close)}?`;
  if (values.length === 1) return `must be ${values[0]}${typed === undefined ? '' : `, got ${shown(typed)}`}`;
  const allowed =
    values.length <= LISTED
      ? `must be ${orList(values)}`
      : `must be one of ${values.length} values (the tool's help lists them)`;
  return `${allowed}${typed === undefined ? '' : `, got ${shown(typed)}`}${hint}`;
}

function sizeWords(issue: Issue, big: boolean): string | undefined {
  const limit = (issue as { minimum?: unknown; maximum?: unknown })[big ? 'maximum' : 'minimum'];
  const inclusive = (issue as { inclusive?: boolean }).inclusive !== false;
  const origin = (issue as { origin?: string }).origin;
  const n = typeof limit === 'bigint' ? Number(limit) : typeof limit === 'number' ? limit : undefined;
  if (n === undefined) return undefined;
  switch (origin) {
    case 'number':
    case 'int':
    case 'bigint': {
      const bound = big ? (inclusive ? 'at most' : 'less than') : inclusive ? 'at least' : 'more than';
      return `must be ${bound} ${n}, got ${shown(issue.input)}`;
    }
    case 'string':
      if (!big && n === 1) return 'must not be empty';
      return `must be ${big ? 'at most' : 'at least'} ${n} character${n === 1 ? '' : 's'} long`;
    case 'array':
    case 'set':
      if (!big && n === 1) return 'must have at least one item';
      return `must have ${big ? 'at most' : 'at least'} ${n} item${n === 1 ? '' : 's'}`;
    default:
      return undefined;
  }
}

const FORMAT_WORDS: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL (https://…)',
  uuid: 'a UUID',
  datetime: 'a date and time (ISO 8601, like 2026-11-24T09:30:00Z)',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (HH:MM:SS)',
  ipv4: 'an IPv4 address',
};

/**
 * An issue in our words, or undefined to keep zod's (a rule's own message comes before this map).
 * A field left out says "required".
 */
export function issueWords(issue: Issue): string | undefined {
  const missing = ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code ?? '');
  if (missing && issue.input === undefined) return 'required';
  switch (issue.code) {
    case 'invalid_type': {
      const expected = String((issue as { expected?: unknown }).expected ?? '');
      const words = TYPE_WORDS[expected] ?? expected;
      return `must be ${words}, got ${shown(issue.input)}`;
    }
    case 'invalid_value':
      return enumWords(issue as Issue & { values?: readonly unknown[] });
    case 'too_small':
      return sizeWords(issue, false);
    case 'too_big':
      return sizeWords(issue, true);
    case 'invalid_format': {
      const format = String((issue as { format?: unknown }).format ?? '');
      const words = FORMAT_WORDS[format];
      return words === undefined ? 'is not in the form this field takes' : `must be ${words}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${String((issue as { divisor?: unknown }).divisor)}`;
    case 'invalid_union':
      return `does not match any form this field takes, got ${shown(issue.input)}`;
    case 'unrecognized_keys': {
      const keys = (issue as { keys?: readonly string[] }).keys ?? [];
      return `has unknown field${keys.length === 1 ? '' : 's'} ${keys.join(', ')}`;
    }
    default:
      return undefined;
  }
}
