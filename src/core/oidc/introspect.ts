import type { JWTPayload } from 'jose';
import { z } from 'zod';
import { CLOCK_SKEW_S, type OidcSettings } from './settings.js';
import { identityOf, scopesOf, type TokenCheck } from './token-claims.js';

/** How long an introspection's answer is taken without asking again (never past the token's `exp`). */
export const INTROSPECTION_CACHE_MS = 30_000;

/** What an introspection endpoint answers (RFC 7662 section 2.2); other members pass through. */
const IntrospectionSchema = z.looseObject({
  active: z.boolean(),
  iss: z.string().optional(),
  sub: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  exp: z.number().optional(),
  iat: z.number().optional(),
  nbf: z.number().optional(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  jti: z.string().optional(),
});

export interface IntrospectOptions {
  settings: OidcSettings;
  /** What `aud` must hold. */
  audience: string;
  /** Milliseconds since the epoch. */
  now: number;
  fetch?: typeof fetch;
}

/** `client_secret_basic` (RFC 6749 section 2.3.1): both parts form-encoded, then Base64. */
function basic(clientId: string, secret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
}

/** The endpoint's answer, or why there is none (never the token, never the client's secret). */
async function ask(
  token: string,
  options: IntrospectOptions,
): Promise<z.infer<typeof IntrospectionSchema> | string> {
  const introspection = options.settings.introspection;
  if (introspection === undefined) return 'the token is not a JWT this server can check';
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(introspection.url, {
      method: 'POST',
      headers: {
        authorization: basic(introspection.clientId, introspection.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
  } catch {
    return 'the identity provider cannot be asked about the token (introspection unreachable)';
  }
  if (!response.ok) return `the identity provider's introspection answered ${response.status}`;
  const parsed = IntrospectionSchema.safeParse(await response.json().catch(() => undefined));
  return parsed.success ? parsed.data : "the identity provider's introspection answer is not RFC 7662";
}

/**
 * An opaque access token checked by the identity provider (RFC 7662): it must be active, from a
 * configured issuer, for this resource, not expired nor too old, and name a person (`sub`). The
 * answer is taken for at most `INTROSPECTION_CACHE_MS`, and never past the token's expiry.
 */
export async function introspect(token: string, options: IntrospectOptions): Promise<TokenCheck> {
  const answer = await ask(token, options);
  if (typeof answer === 'string') return { ok: false, reason: answer };
  if (!answer.active)
    return { ok: false, reason: 'the identity provider says the token is not active (expired or revoked)' };
  const { settings, audience, now } = options;
  // Without `iss` the answer is the endpoint's own issuer's: the first configured one.
  const iss = answer.iss ?? settings.issuers[0];
  if (iss === undefined || !settings.issuers.includes(iss))
    return { ok: false, reason: 'the token is from another issuer' };
  const audiences = typeof answer.aud === 'string' ? [answer.aud] : (answer.aud ?? []);
  if (!audiences.includes(audience))
    return { ok: false, reason: 'the token was issued for another resource (aud)' };
  const nowS = now / 1000;
  if (answer.exp === undefined || answer.exp + CLOCK_SKEW_S <= nowS)
    return { ok: false, reason: 'the token has expired' };
  if (answer.nbf !== undefined && answer.nbf - CLOCK_SKEW_S > nowS)
    return { ok: false, reason: 'the token is not valid yet' };
  if (answer.iat === undefined || nowS - answer.iat > settings.maxTokenAgeS + CLOCK_SKEW_S)
    return { ok: false, reason: 'the token is older than BANKOPS_OAUTH_MAX_TOKEN_AGE allows, or has no iat' };
  if (answer.sub === undefined || answer.sub === '')
    return { ok: false, reason: 'the token names no person (sub)' };
  // An opaque token may be its own id: a `jti` equal to it is never kept.
  const { jti, active: _active, aud: _aud, exp, iat, nbf: _nbf, sub, ...rest } = answer;
  const claims: JWTPayload = {
    ...rest,
    iss,
    sub,
    exp,
    iat,
    ...(jti === undefined || jti === token ? {} : { jti }),
  };
  return {
    ok: true,
    identity: identityOf(claims),
    scopes: scopesOf(claims),
    expiresAt: exp * 1000,
    until: Math.min(exp * 1000, (iat + settings.maxTokenAgeS) * 1000, now + INTROSPECTION_CACHE_MS),
  };
}
