import { type Config, ConfigError, parseConfig } from '../core/config.js';
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
}

export function loadServeSettings(env: Record<string, string | undefined> = process.env): ServeSettings {
  const slack = parseSlackSettings(env);
  // Read once, by the core's configuration (the passkey pages need it too).
  const { publicUrl } = loadConfig(env);
  return { slack, ...optional('publicUrl', publicUrl) };
}
