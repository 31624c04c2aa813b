import type { FeatureStores } from '../../core/store/backend.js';
import type { SlackStores } from './stores.js';

/**
 * The Slack front end's stores, one builder per backend (`sqlite/`, `postgres/`): the runtime's
 * backend builds the one it is (`Backend.storesOf`), loading only that module.
 */
export const slackStores: FeatureStores<SlackStores> = {
  sqlite: async () => (await import('./sqlite/index.js')).sqliteSlackStores,
  postgres: async () => (await import('./postgres/index.js')).postgresSlackStores,
};
