import { type Config, ConfigError, parseConfig } from '../core/config.js';
import { loadOidcSettings, type OidcSettings } from '../core/oidc/settings.js';
import { optional } from '../core/optional.js';
import { SANDBOX_DEFAULTS } from '../sandbox/credentials.js';
import { parseSlackSettings, type SlackSettings } from '../slack/config.js';

export type { Config } from '../core/config.js';
export { ConfigError };

/**
 * The configuration from the environment; what it does not name defaults to the embedded sandbox's
 * credentials and codes, so a run with no configuration at all works against the sandbox.
 */
export const loadConfig = (env: Record<string, string | undefined> = process.env): Config =>
  parseConfig(env, SANDBOX_DEFAULTS);

/** What `bankops serve` reads besides the core's configuration: Slack, and where it is reached from outside. */
export interface ServeSettings {
  slack: SlackSettings;
  /** `BANKOPS_PUBLIC_URL` without a trailing slash: the proxy or tunnel in front of `serve`. */
  publicUrl?: string;
  /** `BANKOPS_METRICS_KEY`: `/metrics` for clients beyond loopback, with this bearer key. */
  metricsKey?: string;
  /** `BANKOPS_OAUTH_ISSUER` and the rest: `/mcp` takes the identity provider's access tokens. */
  oidc?: OidcSettings;
}

/** A metrics key shorter than this is refused: it would be guessed. */
const METRICS_KEY_MIN = 16;

export function loadServeSettings(env: Record<string, string | undefined> = process.env): ServeSettings {
  const slack = parseSlackSettings(env);
  // Read once, by the core's configuration (the passkey pages need it too).
  const { publicUrl } = loadConfig(env);
  const metricsKey = env.BANKOPS_METRICS_KEY?.trim() || undefined;
  if (metricsKey !== undefined && (metricsKey.length < METRICS_KEY_MIN || /\s/.test(metricsKey)))
    throw new ConfigError([
      `BANKOPS_METRICS_KEY must be at least ${METRICS_KEY_MIN} characters without spaces (e.g. \`openssl rand -hex 24\`)`,
    ]);
  const oidc = loadOidcSettings(env);
  if (oidc !== undefined && publicUrl === undefined)
    throw new ConfigError([
      'BANKOPS_OAUTH_ISSUER needs BANKOPS_PUBLIC_URL: access tokens are issued for BANKOPS_PUBLIC_URL/mcp',
    ]);
  return {
    slack,
    ...optional('publicUrl', publicUrl),
    ...optional('metricsKey', metricsKey),
    ...optional('oidc', oidc),
  };
}
