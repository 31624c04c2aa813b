import { createHash } from 'node:crypto';
import { canonicalJson, type JsonValue } from './canonical-json.js';
import type { Actor } from './policy/types.js';
import { redact } from './redact.js';

/**
 * Who asks for what, as a digest: an identical request has the same fingerprint. Secrets are
 * redacted before hashing (their field names stay): a six-digit PIN hashed with the rest of a known
 * input could be recovered from the stored digest by trying every PIN. Two requests that differ
 * only in a secret are therefore one request for joining and idempotency, which is what a retry is.
 */
export function requestFingerprint(
  actor: Actor,
  tool: string,
  input: Record<string, unknown>,
  secretFields: readonly string[],
): string {
  return createHash('sha256')
    .update(canonicalJson({ actor: actor.id, tool, input: redact(input, secretFields) as JsonValue }))
    .digest('hex');
}

/** The request id of a keyed call: stable, so the service deduplicates a retry too. */
export const keyedRequestId = (actor: Actor, tool: string, key: string): string =>
  `idem-${createHash('sha256').update(`${actor.id}\u0000${tool}\u0000${key}`).digest('hex').slice(0, 32)}`;
