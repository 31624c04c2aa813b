import { passkeyUrlProblem } from '../policy/step-up.js';
import { PasskeyError } from './errors.js';

/** Who the passkeys are for: the origin browsers show the pages on, and its host as RP ID. */
export interface RelyingParty {
  /** `https://bankops.example.com` */
  origin: string;
  /** `bankops.example.com` */
  rpId: string;
  /** The public URL without a trailing slash, the base of the links. */
  baseUrl: string;
}

/** The relying party behind `BANKOPS_PUBLIC_URL`; throws a 503 `PasskeyError` (`not_configured`) when passkeys cannot work there. */
export function relyingPartyOf(publicUrl: string | undefined): RelyingParty {
  const problem = passkeyUrlProblem(publicUrl);
  if (problem !== undefined || publicUrl === undefined) {
    throw new PasskeyError(503, `passkeys are not available: ${problem ?? 'no public URL'}`);
  }
  const url = new URL(publicUrl);
  return { origin: url.origin, rpId: url.hostname, baseUrl: publicUrl.replace(/\/+$/, '') };
}
