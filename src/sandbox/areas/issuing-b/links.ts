import { randomBytes } from 'node:crypto';

/**
 * One-time links the service hands out (card details reveal, PIN iframes, KYC submission).
 * They are secrets: random, on the reserved `.invalid` domain, and never put in an error message.
 */
const token = (): string => randomBytes(18).toString('base64url');

export const revealLink = (): string => `https://cards.sandbox.invalid/reveal/${token()}`;
export const pinLink = (step: 'set' | 'reset' | 'change'): string =>
  `https://cards.sandbox.invalid/pin/${step}/${token()}`;
export const kycLink = (): string => `https://kyc.sandbox.invalid/submit/${token()}`;
