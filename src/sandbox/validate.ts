import type { z } from 'zod';
import { invalid } from './errors.js';
import type { SandboxRequest } from './types.js';

/** `a.b[0].c` from a zod issue path. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
}

/**
 * Parses a request body (or any input) with a zod schema; on failure throws a 400 whose message
 * names every failing field and its rule: `firstName: must be at most 14 characters`.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what = 'request body',
): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const field = fieldPath(issue.path);
    return field === '' ? issue.message : `${field}: ${issue.message}`;
  });
  throw invalid(`invalid ${what}: ${details.join('; ')}`);
}

/** A required query parameter (400 naming it when absent or empty). */
export function requiredQuery(req: SandboxRequest, name: string): string {
  const value = req.query.get(name);
  if (value === null || value.trim() === '') throw invalid(`missing required query parameter ${name}`);
  return value;
}

export function optionalQuery(req: SandboxRequest, name: string): string | undefined {
  const value = req.query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** An optional integer query parameter within bounds (400 naming it otherwise). */
export function intQuery(
  req: SandboxRequest,
  name: string,
  opts: { min: number; max?: number; fallback: number },
): number {
  const raw = optionalQuery(req, name);
  if (raw === undefined) return opts.fallback;
  if (!/^-?\d+$/.test(raw)) throw invalid(`query parameter ${name} must be an integer`);
  const value = Number(raw);
  if (value < opts.min) throw invalid(`query parameter ${name} must be at least ${opts.min}`);
  if (opts.max !== undefined && value > opts.max) {
    throw invalid(`query parameter ${name} must be at most ${opts.max}`);
  }
  return value;
}

/** Default and maximum page size (the spec leaves both open; docs/sandbox.md). */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** A page-number query parameter (`page`, `page_num`, `pageNumber`): an integer from 1, default 1. */
export function pageNumberQuery(req: SandboxRequest, name: string): number {
  return intQuery(req, name, { min: 1, fallback: 1 });
}

/**
 * A page-size query parameter (`pageSize`, `page_size`, `size`): an integer from 1, default
 * {@link DEFAULT_PAGE_SIZE}. A size above {@link MAX_PAGE_SIZE} is capped to it, not refused: the
 * spec shows no maximum, so a caller asking for more simply gets the largest page.
 */
export function pageSizeQuery(req: SandboxRequest, name: string): number {
  return Math.min(intQuery(req, name, { min: 1, fallback: DEFAULT_PAGE_SIZE }), MAX_PAGE_SIZE);
}

/** Pages count from 1. Returns the slice and the paging facts. */
export function paginate<T>(
  items: readonly T[],
  page: number,
  size: number,
): { items: T[]; page: number; size: number; total: number; totalPages: number; hasMore: boolean } {
  const start = (page - 1) * size;
  const slice = items.slice(start, start + size);
  return {
    items: slice,
    page,
    size,
    total: items.length,
    totalPages: Math.max(1, Math.ceil(items.length / size)),
    hasMore: start + slice.length < items.length,
  };
}

/** `YYYY-MM-DD` naming a real calendar day. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** `YYYY-MM-DD` or `yyyy-MM-ddTHH:mm:ss` (wallet history filters); returns epoch ms or undefined. */
export function parseDateOrDateTime(value: string): number | undefined {
  if (isCalendarDate(value)) return Date.parse(`${value}T00:00:00Z`);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!m?.[1] || !isCalendarDate(m[1])) return undefined;
  const ms = Date.parse(`${value}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Whole years between a `YYYY-MM-DD` birth date and `now`. */
export function ageOn(dateOfBirth: string, now: Date): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  const beforeBirthday = now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** ISO 8601 UTC without milliseconds: `2026-11-22T09:15:00Z`. */
export const isoUtc = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;
/**
 * ISO 8601 UTC with milliseconds: `2026-11-22T09:15:00.123Z`. For instants that decide something
 * (quote `expiresAt`), where cutting to whole seconds would misstate the moment by up to 1 s.
 */
export const isoUtcMs = (date: Date): string => date.toISOString();
/** `YYYY-MM-DD HH:MM:SS` (family A and B cardholder timestamps). */
export const spaceTimestamp = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');
/** `YYYY-MM-DDTHH:MM:SS` without zone (wallet timestamps, history items). */
export const localTimestamp = (date: Date): string => date.toISOString().slice(0, 19);
/** `YYYY-MM-DD`. */
export const calendarDate = (date: Date): string => date.toISOString().slice(0, 10);
/** Money rounded to cents, as a JSON number. */
export const money = (value: number, decimals = 2): number => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};
