import { resolve } from 'node:path';
import { type Config, loadConfig } from '../app/config.js';
import { optional } from '../core/optional.js';
import { cliIo } from './io.js';

/** The run's configuration: from its environment, a relative file path taken from its directory. */
export function cliConfig(): Config {
  const { env, cwd } = cliIo();
  const config = loadConfig(env);
  return {
    ...config,
    databasePath:
      config.databasePath === ':memory:' ? config.databasePath : resolve(cwd, config.databasePath),
    ...optional('policyPath', config.policyPath === undefined ? undefined : resolve(cwd, config.policyPath)),
  };
}
