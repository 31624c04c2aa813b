import { createHash } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, errors, type JWTPayload, jwtVerify } from 'jose';
import { optional } from '../optional.js';
import { discover } from './discovery.js';
import { introspect } from './introspect.js';
import { CLOCK_SKEW_S, type OidcSettings } from './settings.js';
import { identityOf, scopesOf, type TokenCheck } from './token-claims.js';

export { identityOf, scopesOf, type TokenCheck } from './token-claims.js';

/** The scopes bankops asks for: reading, and everything else. */
export const SCOPES = { read: 'bankops:read', write: 'bankops:write' } as const;

export interface VerifierOptions {
  settings: OidcSettings;
  /** What `aud` must hold when the settings name no audience: the resource (`BANKOPS_PUBLIC_URL/mcp`). */
  resource: string;
  /** The time tokens are judged at (the runtime's clock in tests). */
  now?: () => Date;
  /** The least time between two fetches of a JWKS for an unknown `kid` (jose's default: 30 s). */
  jwksCooldownMs?: number;
  fetch?: typeof fetch;
}

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** Tokens whose signature was checked, by digest; an assistant sends the same one on every call. */
const CACHE_SIZE = 1024;

/** Why jose refused a token, in words for the 401 (never the token). */
function refusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) {
    return error.claim === 'iat'
      ? 'the token is older than BANKOPS_OAUTH_MAX_TOKEN_AGE allows'
      : 'the token has expired';
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'the token was issued for another resource (aud)';
    if (error.claim === 'iss') return 'the token is from another issuer';
    if (error.claim === 'iat')
      return 'the token is older than BANKOPS_OAUTH_MAX_TOKEN_AGE allows, or has no iat';
    return `the token's ${error.claim} claim is not acceptable (${error.reason})`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'the token is signed with a key the issuer does not publish';
  if (error instanceof errors.JOSEError) return `the token cannot be read (${error.code})`;
  return 'the token cannot be checked';
}

/**
 * Access tokens as an OAuth 2.1 resource server checks them (RFC 9068, RFC 8707): a JWT signed
 * with a key of one of the configured issuers' JWKS (cached by jose, fetched again for an unknown
 * `kid`), for this resource, not expired (with a small skew), no older than the maximum age.
 */
export class TokenVerifier {
  readonly #options: VerifierOptions;
  readonly #keySets = new Map<string, Promise<KeySet>>();
  /**
   * Checked tokens by their SHA-256 (never the token), each good until it expires or grows too old:
   * the signature is checked once per token, the time limits on every request.
   */
  readonly #checked = new Map<string, { check: TokenCheck & { ok: true }; until: number }>();

  constructor(options: VerifierOptions) {
    this.#options = options;
  }

  get audience(): string {
    return this.#options.settings.audience ?? this.#options.resource;
  }

  /** The issuer's keys, discovered once; a failed discovery is tried again on the next token. */
  #keySet(issuer: string): Promise<KeySet> {
    let keySet = this.#keySets.get(issuer);
    if (keySet === undefined) {
      const fetcher = this.#options.fetch ?? fetch;
      keySet = discover(issuer, fetcher).then((metadata) => {
        if (metadata.jwks_uri === undefined) throw new Error(`${issuer} publishes no jwks_uri`);
        return createRemoteJWKSet(new URL(metadata.jwks_uri), {
          ...optional('cooldownDuration', this.#options.jwksCooldownMs),
        });
      });
      keySet.catch(() => this.#keySets.delete(issuer));
      this.#keySets.set(issuer, keySet);
    }
    return keySet;
  }

  async verify(token: string): Promise<TokenCheck> {
    const digest = createHash('sha256').update(token).digest('base64url');
    const now = this.#options.now?.().getTime() ?? Date.now();
    const cached = this.#checked.get(digest);
    if (cached !== undefined && now < cached.until) return cached.check;
    if (cached !== undefined) this.#checked.delete(digest);
    const check = await this.#verify(token);
    if (check.ok) {
      if (this.#checked.size >= CACHE_SIZE) {
        const oldest = this.#checked.keys().next().value;
        if (oldest !== undefined) this.#checked.delete(oldest);
      }
      this.#checked.set(digest, { check, until: check.until });
    }
    return check;
  }

  async #verify(token: string): Promise<TokenCheck> {
    const { settings } = this.#options;
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      // Not a JWT: an opaque token, which only the identity provider can vouch for (RFC 7662).
      return introspect(token, {
        settings,
        audience: this.audience,
        now: this.#options.now?.().getTime() ?? Date.now(),
        ...optional('fetch', this.#options.fetch),
      });
    }
    // Only the configured issuers' keys are ever fetched: `iss` picks among them, nothing else.
    const issuer = settings.issuers.find((candidate) => candidate === unverified.iss);
    if (issuer === undefined) return { ok: false, reason: 'the token is from another issuer' };
    try {
      const keySet = await this.#keySet(issuer);
      const { payload } = await jwtVerify(token, keySet, {
        issuer,
        audience: this.audience,
        clockTolerance: CLOCK_SKEW_S,
        maxTokenAge: settings.maxTokenAgeS,
        requiredClaims: ['exp', 'iat', 'sub'],
        ...optional('currentDate', this.#options.now?.()),
      });
      return {
        ok: true,
        identity: identityOf(payload),
        scopes: scopesOf(payload),
        expiresAt: (payload.exp ?? 0) * 1000,
        until: Math.min((payload.exp ?? 0) + CLOCK_SKEW_S, (payload.iat ?? 0) + settings.maxTokenAgeS) * 1000,
      };
    } catch (error) {
      return { ok: false, reason: refusal(error) };
    }
  }
}
