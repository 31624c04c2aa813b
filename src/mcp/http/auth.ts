import type { IncomingMessage } from 'node:http';

/**
 * The bearer key of a request, or undefined when there is none. Only the `Bearer` scheme
 * (case-insensitive, RFC 6750); the key itself is never logged or echoed.
 */
export function bearerKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

/** RFC 6750 challenges: no key at all, or a key the policy does not list. */
export const CHALLENGE = {
  missing: 'Bearer realm="bankops"',
  invalid: 'Bearer realm="bankops", error="invalid_token"',
} as const;
