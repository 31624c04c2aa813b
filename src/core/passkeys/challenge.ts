import { createHash, randomBytes } from 'node:crypto';
import type { SignedVote } from '../approvals/step-up.js';
import { canonicalJson } from '../canonical-json.js';

/**
 * The WebAuthn challenge of a signed vote: SHA-256 of the canonical JSON of what it signs (approval
 * id, attempt, tool, input, bound, person, nonce). Anyone holding `signed` recomputes it.
 */
export function challengeOf(signed: SignedVote): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(createHash('sha256').update(canonicalJson(signed)).digest());
}

/** The same, base64url, as `clientDataJSON.challenge` carries it. */
export const challengeText = (signed: SignedVote): string =>
  Buffer.from(challengeOf(signed)).toString('base64url');

/** A fresh nonce: 128 random bits. */
export const newNonce = (): string => randomBytes(16).toString('base64url');
