import { type Config, parseConfig } from '../core/config.js';
import { SANDBOX_DEFAULTS } from '../sandbox/credentials.js';

export type { Config } from '../core/config.js';
export { ConfigError } from '../core/config.js';

/**
 * The configuration from the environment; what it does not name defaults to the embedded sandbox's
 * credentials and codes, so a run with no configuration at all works against the sandbox.
 */
export const loadConfig = (env: Record<string, string | undefined> = process.env): Config =>
  parseConfig(env, SANDBOX_DEFAULTS);
