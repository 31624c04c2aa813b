import { createHash } from 'node:crypto';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { AuditLog } from '../audit/index.js';
import type { Storage, Stores } from '../store/index.js';
import type { PasskeyInfo } from './credentials.js';
import { infoOf } from './credentials.js';
import { PasskeyError } from './errors.js';
import type { Link } from './links.js';
import type { RelyingParty } from './relying-party.js';
import { webauthn } from './webauthn.js';

/** A passkey's name, as its owner gives it ("laptop", "YubiKey 5C"). */
const PasskeyNameSchema = z
  .string()
  .trim()
  .min(1, 'give the passkey a name')
  .max(64, 'at most 64 characters')
  .regex(/^[\p{L}\p{N} ._'()@+-]+$/u, "letters, digits, spaces and . _ ' ( ) @ + - only");

/** The browser's answer to `navigator.credentials.create`, as @simplewebauthn/browser posts it. */
const RegistrationResponseSchema = z.object({
  id: z.base64url(),
  rawId: z.base64url(),
  type: z.literal('public-key'),
  response: z
    .object({
      clientDataJSON: z.base64url(),
      attestationObject: z.base64url(),
      transports: z.array(z.string()).optional(),
    })
    .loose(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

/** A stable WebAuthn user handle per person, revealing nothing but a hash. */
const userIdOf = (person: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(createHash('sha256').update(`bankops person ${person}`).digest());

/** The options of `navigator.credentials.create`: user verification required, resident key preferred. */
export async function registrationOptions(
  rp: RelyingParty,
  person: string,
  existing: readonly { credentialId: string }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: 'bankops',
    rpID: rp.rpId,
    userName: person,
    userDisplayName: person,
    userID: userIdOf(person),
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    timeout: 120_000,
  });
}

export interface EnrolDeps {
  storage: Storage;
  audit: AuditLog;
  rp: RelyingParty;
  now: Date;
}

/**
 * Checks the browser's registration against the link's challenge and keeps the passkey, audited
 * with its public key (so signed votes can be checked offline against the log alone).
 */
export async function finishEnrolment(
  deps: EnrolDeps,
  link: Link,
  rawName: unknown,
  rawResponse: unknown,
): Promise<PasskeyInfo> {
  const issuer = link.actor;
  const refuse = async (status: 400 | 409, reason: string): Promise<never> => {
    await deps.audit.append({
      actor: issuer.id,
      frontEnd: issuer.frontEnd,
      tool: 'passkey',
      input: { person: link.person },
      event: 'credential',
      decision: 'refused',
      outcome: 'failed',
      error: reason,
    });
    throw new PasskeyError(status, reason);
  };
  const name = PasskeyNameSchema.safeParse(rawName);
  if (!name.success) return refuse(400, `passkey name: ${name.error.issues[0]?.message ?? 'invalid'}`);
  const response = RegistrationResponseSchema.safeParse(rawResponse);
  if (!response.success || link.challenge === null)
    return refuse(400, 'the browser did not send a passkey registration');
  const { verifyRegistrationResponse } = await webauthn();
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await verifyRegistrationResponse({
      response: {
        id: response.data.id,
        rawId: response.data.rawId,
        type: 'public-key',
        response: {
          clientDataJSON: response.data.response.clientDataJSON,
          attestationObject: response.data.response.attestationObject,
        },
        clientExtensionResults: {},
      },
      expectedChallenge: link.challenge,
      expectedOrigin: deps.rp.origin,
      expectedRPID: deps.rp.rpId,
      requireUserVerification: true,
    });
  } catch (error) {
    return refuse(
      400,
      `the passkey registration does not verify: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown'}`,
    );
  }
  if (!verified.verified) return refuse(400, 'the passkey registration does not verify');
  const { credential } = verified.registrationInfo;
  const publicKey = Buffer.from(credential.publicKey).toString('base64url');
  const at = deps.now.toISOString();
  const keep = async (tx: Stores): Promise<void> => {
    await tx.credentials.insert({
      credentialId: credential.id,
      person: link.person,
      name: name.data,
      publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      createdAt: at,
    });
    await deps.audit.appendIn(tx, {
      actor: issuer.id,
      frontEnd: issuer.frontEnd,
      tool: 'passkey',
      input: {
        person: link.person,
        name: name.data,
        credentialId: credential.id,
        publicKey,
        rpId: deps.rp.rpId,
        origin: deps.rp.origin,
        counter: credential.counter,
      },
      event: 'credential',
      decision: 'enrolled',
      outcome: 'ok',
    });
  };
  // The passkey and its audit entry commit together, or neither.
  const problem = await deps.storage.transaction(async (tx): Promise<string | undefined> => {
    if ((await tx.credentials.activeNamed(link.person, name.data)) !== undefined)
      return `${link.person} already has a passkey named "${name.data}"; choose another name`;
    if ((await tx.credentials.byId(credential.id)) !== undefined) return 'this passkey is already registered';
    await keep(tx);
    return undefined;
  });
  if (problem !== undefined) return refuse(409, problem);
  return infoOf((await deps.storage.read((s) => s.credentials.byId(credential.id)))!);
}
