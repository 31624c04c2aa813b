import { createHash } from 'node:crypto';
import { invalid } from './errors.js';

export interface StoredResponse {
  httpStatus: number;
  body: unknown;
}

interface Entry {
  fingerprint: string;
  response: StoredResponse;
}

/** Stable JSON: object keys sorted, so two equal bodies have one fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `x-request-id` as an idempotency key, scoped per operation. Only successful answers are kept:
 * a refused request created nothing, so the caller may fix it and send it again with the same id.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  static fingerprint(parts: unknown): string {
    return createHash('sha256').update(canonicalJson(parts)).digest('hex');
  }

  /** The first answer for this key, or `undefined` if new; throws if the key was used differently. */
  lookup(operation: string, requestId: string, fingerprint: string): StoredResponse | undefined {
    const entry = this.entries.get(`${operation}\u0000${requestId}`);
    if (entry === undefined) return undefined;
    if (entry.fingerprint !== fingerprint) {
      throw invalid(
        `x-request-id '${requestId}' was already used for a different ${operation} request; use a new x-request-id`,
      );
    }
    return entry.response;
  }

  remember(operation: string, requestId: string, fingerprint: string, response: StoredResponse): void {
    this.entries.set(`${operation}\u0000${requestId}`, { fingerprint, response });
  }

  clear(): void {
    this.entries.clear();
  }

  snapshot(): [string, Entry][] {
    return [...this.entries];
  }

  restore(entries: readonly [string, Entry][]): void {
    this.entries.clear();
    for (const [key, entry] of entries) this.entries.set(key, entry);
  }
}
