import { z } from 'zod';
import { AssertionSchema, type SignedVote } from '../approvals/step-up.js';
import { optional } from '../optional.js';
import { challengeText } from './challenge.js';
import { webauthn } from './webauthn.js';

/** The browser's answer to `navigator.credentials.get`, as @simplewebauthn/browser posts it. */
export const AuthenticationResponseSchema = z.object({
  id: z.base64url(),
  rawId: z.base64url(),
  type: z.literal('public-key'),
  response: AssertionSchema.extend({ userHandle: z.base64url().optional() }).loose(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});
export type AuthenticationResponse = z.infer<typeof AuthenticationResponseSchema>;

export interface AssertionCheck {
  credentialId: string;
  publicKey: string;
  signed: SignedVote;
  assertion: z.infer<typeof AssertionSchema>;
  origin: string;
  rpId: string;
}

/**
 * Checks one assertion over a signed vote: the signature with the public key, the challenge being
 * the hash of `signed`, the origin and RP ID, user verification. The counter is the caller's to
 * judge (it needs the stored one). Returns the counter it carries, or why it does not verify.
 */
export async function checkAssertion(
  check: AssertionCheck,
): Promise<{ ok: true; counter: number } | { ok: false; reason: string }> {
  const { verifyAuthenticationResponse } = await webauthn();
  try {
    const result = await verifyAuthenticationResponse({
      response: {
        id: check.credentialId,
        rawId: check.credentialId,
        type: 'public-key',
        response: {
          authenticatorData: check.assertion.authenticatorData,
          clientDataJSON: check.assertion.clientDataJSON,
          signature: check.assertion.signature,
          ...optional('userHandle', check.assertion.userHandle),
        },
        clientExtensionResults: {},
      },
      expectedChallenge: challengeText(check.signed),
      expectedOrigin: check.origin,
      expectedRPID: check.rpId,
      expectedType: 'webauthn.get',
      credential: {
        id: check.credentialId,
        publicKey: new Uint8Array(Buffer.from(check.publicKey, 'base64url')),
        counter: 0,
      },
      requireUserVerification: true,
    });
    if (!result.verified) return { ok: false, reason: 'the passkey signature does not verify' };
    return { ok: true, counter: result.authenticationInfo.newCounter };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
}

/** The library's words, made to say which rule the assertion broke. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/challenge/i.test(message))
    return 'the passkey signed something else than what would run now (another approval, another quote, or a replay)';
  if (/origin/i.test(message)) return 'the passkey signed on another site than bankops';
  if (/rp ?id/i.test(message)) return 'the passkey belongs to another relying party';
  if (/user verification|verified/i.test(message))
    return 'the passkey did not verify the user (PIN or biometrics required)';
  return `the passkey signature does not verify (${message.slice(0, 200)})`;
}
