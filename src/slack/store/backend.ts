import type { Backend } from '../../core/store/backend.js';
import { postgresSlackStores } from './postgres/index.js';
import { sqliteSlackStores } from './sqlite/index.js';
import type { SlackStores } from './stores.js';

/** The Slack front end's stores on the runtime's database. */
export const slackStoresOn = (backend: Backend): SlackStores =>
  backend.kind === 'sqlite' ? sqliteSlackStores(backend.db) : postgresSlackStores(backend.store);
