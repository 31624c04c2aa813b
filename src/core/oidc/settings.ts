import { z } from 'zod';
import { ConfigError } from '../config.js';
import { optional } from '../optional.js';

/** How long an access token may have lived since it was issued, unless the environment says otherwise. */
export const DEFAULT_MAX_TOKEN_AGE_S = 10 * 60;
/** The clock difference tolerated between the identity provider and this machine. */
export const CLOCK_SKEW_S = 30;

/** Where bankops takes its people from: the identity provider(s) and what their tokens must say. */
export interface OidcSettings {
  /** `BANKOPS_OAUTH_ISSUER`: one issuer URL, or several separated by commas. */
  issuers: string[];
  /**
   * What an access token's `aud` must hold: `BANKOPS_OAUTH_AUDIENCE` (Entra ID puts its application
   * id there), else the resource itself, `BANKOPS_PUBLIC_URL` + `/mcp` (RFC 8707).
   */
  audience?: string;
  /** `BANKOPS_OAUTH_MAX_TOKEN_AGE`: seconds since `iat` after which a token is refused. */
  maxTokenAgeS: number;
  /** `BANKOPS_OAUTH_CLIENT_ID`: the client `bankops login` signs in as (device flow). */
  cliClientId?: string;
  /** `BANKOPS_OAUTH_INTROSPECTION_*`: where opaque access tokens are checked (RFC 7662), and as whom. */
  introspection?: IntrospectionSettings;
}

export interface IntrospectionSettings {
  url: string;
  clientId: string;
  /** Sent in the Authorization header alone; never in a log, an error or the audit log. */
  clientSecret: string;
}

const url = z.url({ protocol: /^https?$/ });
const text = z.string().trim().min(1);

/** `600`, `600s`, `10m`, `1h` → seconds. */
const age = z
  .string()
  .trim()
  .regex(/^\d{1,6}(s|m|h)?$/, 'must be seconds (600) or a duration such as 10m or 1h')
  .transform((value) => {
    const number = Number.parseInt(value, 10);
    return value.endsWith('h') ? number * 3600 : value.endsWith('m') ? number * 60 : number;
  })
  .refine((seconds) => seconds > 0, 'must be more than 0');

const EnvSchema = z.object({
  BANKOPS_OAUTH_ISSUER: z
    .string()
    .trim()
    .min(1)
    .transform((value) => value.split(',').map((issuer) => issuer.trim()))
    .pipe(z.array(url).min(1))
    .optional(),
  BANKOPS_OAUTH_AUDIENCE: text.optional(),
  BANKOPS_OAUTH_MAX_TOKEN_AGE: age.optional(),
  BANKOPS_OAUTH_CLIENT_ID: text.optional(),
  BANKOPS_OAUTH_INTROSPECTION_URL: url.optional(),
  BANKOPS_OAUTH_INTROSPECTION_CLIENT_ID: text.optional(),
  BANKOPS_OAUTH_INTROSPECTION_CLIENT_SECRET: text.optional(),
});

/** The identity provider settings, or undefined when `BANKOPS_OAUTH_ISSUER` is not set (OAuth is off). */
export function loadOidcSettings(env: Record<string, string | undefined>): OidcSettings | undefined {
  const parsed = EnvSchema.safeParse(
    Object.fromEntries(
      Object.entries(env).filter(([key, value]) => key.startsWith('BANKOPS_OAUTH_') && value !== ''),
    ),
  );
  if (!parsed.success) {
    // The messages name the variable and what is wrong, never the value (a secret among them).
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  if (e.BANKOPS_OAUTH_ISSUER === undefined) return undefined;
  const introspection = introspectionOf(e);
  return {
    // An issuer is compared exactly as the provider writes it (`iss`), trailing slash and all.
    issuers: e.BANKOPS_OAUTH_ISSUER,
    ...optional('audience', e.BANKOPS_OAUTH_AUDIENCE),
    maxTokenAgeS: e.BANKOPS_OAUTH_MAX_TOKEN_AGE ?? DEFAULT_MAX_TOKEN_AGE_S,
    ...optional('cliClientId', e.BANKOPS_OAUTH_CLIENT_ID),
    ...optional('introspection', introspection),
  };
}

/** The introspection endpoint and its client, all three or none. */
function introspectionOf(e: z.infer<typeof EnvSchema>): IntrospectionSettings | undefined {
  const url = e.BANKOPS_OAUTH_INTROSPECTION_URL;
  const clientId = e.BANKOPS_OAUTH_INTROSPECTION_CLIENT_ID;
  const clientSecret = e.BANKOPS_OAUTH_INTROSPECTION_CLIENT_SECRET;
  if (url === undefined && clientId === undefined && clientSecret === undefined) return undefined;
  if (url === undefined || clientId === undefined || clientSecret === undefined)
    throw new ConfigError([
      'BANKOPS_OAUTH_INTROSPECTION_URL, BANKOPS_OAUTH_INTROSPECTION_CLIENT_ID and BANKOPS_OAUTH_INTROSPECTION_CLIENT_SECRET go together: set all three or none',
    ]);
  return { url, clientId, clientSecret };
}
