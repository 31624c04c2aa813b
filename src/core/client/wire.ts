import type { z } from 'zod';
import type { QueryValue } from './http.js';

/** Backoff before retry `attempt` (1-based): capped exponential with jitter, or the server's Retry-After. */
export function backoffMs(attempt: number, retryAfter: string | undefined): number {
  const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 10_000);
  const base = Math.min(2_000, 200 * 2 ** (attempt - 1));
  return base / 2 + Math.random() * (base / 2);
}

export function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
}

const UNSENDABLE = /[^\x20-\x7e]/u;

/**
 * A header value HTTP cannot carry as it is (a control or zero-width character, anything outside
 * printable ASCII): said before sending, so the failure is definite (`not_sent`), never "unknown".
 * Names only the header and the character, never the value (it may be a credential).
 */
export function unsendableHeader(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    const bad = UNSENDABLE.exec(value)?.[0];
    if (bad !== undefined) {
      const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
      return `header ${name} holds a character that cannot be sent (${code})`;
    }
  }
  return undefined;
}
