import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { PasskeyService } from '../../src/core/passkeys/index.js';
import type { Actor } from '../../src/core/policy/types.js';

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/**
 * A software authenticator (ES256, user verified): it answers WebAuthn options as a browser with a
 * platform passkey would, so the core's checks run on real signatures without a browser (tests and
 * bench; the end-to-end test uses Chromium's virtual authenticator instead).
 */
export class SoftPasskey {
  readonly credentialId = randomBytes(16);
  counter = 0;
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = pair.privateKey;
    this.#publicKey = pair.publicKey;
  }

  get id(): string {
    return b64(this.credentialId);
  }

  /** The COSE public key, base64url, as bankops keeps it once enrolled. */
  get publicKey(): string {
    return b64(this.#cosePublicKey());
  }

  #cosePublicKey(): Uint8Array {
    const jwk = this.#publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
    ]);
    return isoCBOR.encode(cose);
  }

  #authData(flags: number, attested?: Uint8Array, rpId = this.rpId): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  /** Answers `navigator.credentials.create` options. */
  register(options: { challenge: string }): Record<string, unknown> {
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: options.challenge,
        origin: this.origin,
        crossOrigin: false,
      }),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.#cosePublicKey()]);
    // UP | UV | AT
    const authData = this.#authData(0x45, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * Answers `navigator.credentials.get` options, as `origin` (a phishing site would differ);
   * `unlike` makes the answer break one rule, signed all the same (another ceremony, an
   * authenticator that did not verify the person, another relying party).
   */
  sign(
    options: { challenge: string },
    origin = this.origin,
    unlike: { type?: string; flags?: number; rpId?: string } = {},
  ): Record<string, unknown> {
    this.counter += 1;
    const type = unlike.type ?? 'webauthn.get';
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type, challenge: options.challenge, origin, crossOrigin: false }),
    );
    // UP | UV
    const authenticatorData = this.#authData(unlike.flags ?? 0x05, undefined, unlike.rpId);
    const signer = createSign('sha256');
    signer.update(Buffer.concat([authenticatorData, sha256(clientDataJSON)]));
    const signature = signer.sign(this.#privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        authenticatorData: b64(authenticatorData),
        clientDataJSON: b64(clientDataJSON),
        signature: b64(signature),
      },
      clientExtensionResults: {},
    };
  }
}

/** A new software passkey ("laptop") for `person`, enrolled through a link `issuer` handed out. */
export async function enrolSoftPasskey(
  passkeys: PasskeyService,
  person: string,
  issuer: Actor,
  origin: string,
): Promise<SoftPasskey> {
  const token = (await passkeys.enrolLink(person, issuer)).url.split('/').at(-1) ?? '';
  const options = (await passkeys.enrolOptions(token)) as { challenge: string };
  const key = new SoftPasskey(origin);
  await passkeys.enrolFinish(token, 'laptop', key.register(options));
  return key;
}
