import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AssertionSchema, type SignedVote } from '../approvals/step-up.js';
import { messageOf } from '../errors.js';
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

export interface AssertionCheck {
  credentialId: string;
  publicKey: string;
  signed: SignedVote;
  assertion: z.infer<typeof AssertionSchema>;
  origin: string;
  rpId: string;
}

/** Which rule an assertion broke: each refusal has its own code, and its own words. */
export type AssertionRefusal =
  | 'unreadable'
  | 'not_an_assertion'
  | 'challenge'
  | 'origin'
  | 'rp_id'
  | 'user_presence'
  | 'user_verification'
  | 'signature';

export type AssertionResult =
  | { ok: true; counter: number }
  | { ok: false; refusal: AssertionRefusal; reason: string };

const REASONS: Readonly<Record<AssertionRefusal, string>> = {
  unreadable: 'the passkey answer cannot be read (its client data or authenticator data)',
  not_an_assertion: 'the passkey answer is not an assertion (webauthn.get)',
  challenge:
    'the passkey signed something else than what would run now (another approval, another quote, or a replay)',
  origin: 'the passkey signed on another site than bankops',
  rp_id: 'the passkey belongs to another relying party',
  user_presence: 'the passkey signed without the person present (no touch or gesture)',
  user_verification: 'the passkey did not verify the user (PIN or biometrics required)',
  signature: 'the passkey signature does not verify',
};

const refused = (refusal: AssertionRefusal, reason = REASONS[refusal]): AssertionResult => ({
  ok: false,
  refusal,
  reason,
});

/** What the browser says it signed (WebAuthn §5.8.1); other members are left alone. */
const ClientDataSchema = z.object({ type: z.string(), challenge: z.string(), origin: z.string() });

/** Flags of the authenticator data (WebAuthn §6.1): user present, user verified. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
/** The RP ID's SHA-256 (32 bytes), the flags (1) and the counter (4). */
const AUTH_DATA_MIN = 37;

function clientDataOf(text: string): z.infer<typeof ClientDataSchema> | undefined {
  try {
    const parsed = ClientDataSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the assertion says it is about, checked by us: the ceremony, the challenge (the hash of
 * `signed`), the origin, the RP ID's hash, and the person present and verified. Undefined when all
 * hold; the signature is the library's to check after.
 */
function claimsRefusal(check: AssertionCheck): AssertionResult | undefined {
  const client = clientDataOf(check.assertion.clientDataJSON);
  const authData = Buffer.from(check.assertion.authenticatorData, 'base64url');
  if (client === undefined || authData.length < AUTH_DATA_MIN) return refused('unreadable');
  if (client.type !== 'webauthn.get') return refused('not_an_assertion');
  if (client.challenge !== challengeText(check.signed)) return refused('challenge');
  if (client.origin !== check.origin) return refused('origin');
  const rpIdHash = createHash('sha256').update(check.rpId).digest();
  if (!authData.subarray(0, 32).equals(rpIdHash)) return refused('rp_id');
  const flags = authData[32] ?? 0;
  if ((flags & USER_PRESENT) === 0) return refused('user_presence');
  if ((flags & USER_VERIFIED) === 0) return refused('user_verification');
  return undefined;
}

/**
 * Checks one assertion over a signed vote: first what it claims (`claimsRefusal`), then the
 * signature with the public key, by the library. The counter is the caller's to judge (it needs
 * the stored one). Returns the counter it carries, or which rule it broke and why.
 */
export async function checkAssertion(check: AssertionCheck): Promise<AssertionResult> {
  const claims = claimsRefusal(check);
  if (claims !== undefined) return claims;
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
    if (!result.verified) return refused('signature');
    return { ok: true, counter: result.authenticationInfo.newCounter };
  } catch (error) {
    // Everything the library reads is checked above: what is left is the signature or the key.
    return refused('signature', `${REASONS.signature} (${messageOf(error).slice(0, 200)})`);
  }
}
