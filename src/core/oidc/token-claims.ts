import type { JWTPayload } from 'jose';
import { optional } from '../optional.js';
import type { OidcIdentity } from '../policy/types.js';

/** What checking an access token came to: its person and scopes, or why it is refused. */
export type TokenCheck =
  | {
      ok: true;
      identity: OidcIdentity;
      scopes: string[];
      expiresAt: number;
      /** When it stops being taken: its expiry (with the skew) or its maximum age, whichever is first. */
      until: number;
    }
  | { ok: false; reason: string };

/** `scope` (space-separated, RFC 9068) or `scp` (Entra ID, Okta: a string or a list). */
export function scopesOf(claims: JWTPayload): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return raw.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(raw)) return raw.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

function groupsOf(claims: JWTPayload): string[] {
  const raw = claims.groups ?? claims.roles;
  if (Array.isArray(raw)) return raw.filter((group): group is string => typeof group === 'string');
  return typeof raw === 'string' ? [raw] : [];
}

/** What a verified token says of its person; the token itself goes no further. */
export function identityOf(claims: JWTPayload): OidcIdentity {
  return {
    iss: claims.iss ?? '',
    sub: claims.sub ?? '',
    ...optional('email', text(claims.email)?.toLowerCase()),
    groups: groupsOf(claims),
    ...optional('clientId', text(claims.client_id) ?? text(claims.azp)),
    ...optional('jti', text(claims.jti)),
  };
}
