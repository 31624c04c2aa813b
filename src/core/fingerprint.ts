import { createHash, createHmac } from 'node:crypto';
import { canonicalJson, type JsonValue } from './canonical-json.js';
import type { Actor } from './policy/types.js';
import { collectSecrets } from './redact.js';

/** Marks a fingerprint made with the install's key (an input holding a secret). */
const KEYED = 'k1:';

/**
 * Who asks for what, as a digest: an identical request has the same fingerprint, a different input
 * (a different PIN included) another one. The digest is stored, so an input holding a secret (a PIN,
 * a card number, a webhook key) is hashed with a key kept outside the database (HMAC-SHA256): a
 * six-digit PIN could otherwise be recovered from a plain digest of a known input in seconds. Other
 * inputs keep their plain SHA-256, which databases of earlier versions hold.
 */
export function requestFingerprint(
  key: Buffer,
  actor: Actor,
  tool: string,
  input: Record<string, unknown>,
  secretFields: readonly string[],
): string {
  const text = canonicalJson({ actor: actor.id, tool, input: input as JsonValue });
  if (collectSecrets(input, secretFields).length === 0)
    return createHash('sha256').update(text).digest('hex');
  return `${KEYED}${createHmac('sha256', key).update(text).digest('hex')}`;
}

/** The request id of a keyed call: stable, so the service deduplicates a retry too. */
export const keyedRequestId = (actor: Actor, tool: string, key: string): string =>
  `idem-${createHash('sha256').update(`${actor.id}\u0000${tool}\u0000${key}`).digest('hex').slice(0, 32)}`;
