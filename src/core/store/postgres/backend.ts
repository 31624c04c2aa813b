import type { Logger } from '../../log.js';
import { optional } from '../../optional.js';
import type { Backend, BackendAdmin, Directories, Migrated } from '../backend.js';
import { postgresCards } from './cards.js';
import { copyIntoPostgres } from './copy.js';
import { PgFeedSharing } from './feed-sharing.js';
import { checkPostgres } from './inspect.js';
import { postgresKeyChecks } from './key-checks.js';
import { type MigrateResult, migrate, schemaState } from './migrate.js';
import { postgresPayees } from './payees.js';
import { createPgPool, type PgPoolOptions, type PgStore, ping } from './pool.js';
import { postgresStorage } from './storage.js';
import { postgresWebhookKeys } from './webhook-keys.js';

export { runtimeGrantsSql } from './roles.js';

/** The PostgreSQL backend, with its pool: for the composition root and tests that read its tables. */
export interface PostgresBackend extends Backend {
  readonly store: PgStore;
}

const migratedOf = (result: MigrateResult): Migrated => ({
  applied: result.applied.map((version) => `version ${version}`),
  version: { from: result.from, to: result.to },
});

/**
 * The administration of the database on `store`'s pool: migrations (under the schema's advisory
 * lock), the check of `config check`, and the copy of a SQLite deployment into it. `ends` says
 * whether closing it ends the pool (a command's own), or leaves it to its backend.
 */
export function postgresAdmin(store: PgStore, ends: boolean): BackendAdmin {
  const migrateIt = async (grant?: string): Promise<Migrated> =>
    migratedOf(await migrate(store, grant === undefined ? {} : { runtimeRole: grant }));
  return {
    where: store.where,
    roles: true,
    migrate: (options = {}) => migrateIt(options.grant),
    inspect: () => checkPostgres(store),
    copyFrom: (file, events) => copyIntoPostgres(store, file, () => migrateIt(), events),
    close: async () => {
      if (ends) await store.pool.end();
    },
  };
}

/** The administration of the database at `url`, over a small pool of its own, named `bankops <name>`. */
export function postgresAdminAt(url: string, name: string, options: PgPoolOptions = {}): BackendAdmin {
  return postgresAdmin(createPgPool(url, { applicationName: `bankops ${name}`, max: 2, ...options }), true);
}

/**
 * bankops's database in PostgreSQL at `url`, migrated first (under the schema's advisory lock, so
 * replicas starting together apply each version once; said by the one replica that applied them).
 * Its stores, directories and feed sharing run on one pool; the feed's wake-ups on a connection of
 * their own. An unreachable server gives the one-line error naming it.
 */
export async function openPostgres(url: string, log?: Logger): Promise<PostgresBackend> {
  const store = createPgPool(url, optional('log', log));
  try {
    const migrated = await migrate(store);
    if (migrated.applied.length > 0)
      log?.info('database migrated', { database: store.where, applied: migrated.applied });
  } catch (error) {
    await store.pool.end();
    throw error;
  }
  const feedSharing = new PgFeedSharing(store, url, log);
  let directories: Directories | undefined;
  return {
    name: 'PostgreSQL',
    where: store.where,
    store,
    storage: postgresStorage(store),
    get directories(): Directories {
      directories ??= {
        payees: postgresPayees(store),
        cards: postgresCards(store),
        webhookKeys: postgresWebhookKeys(store),
      };
      return directories;
    },
    feedSharing,
    policyWakeups: feedSharing,
    keyChecks: postgresKeyChecks(store),
    capabilities: { commitIsDurable: false },
    admin: postgresAdmin(store, false),
    storesOf: async (feature) => (await feature.postgres())(store),
    threadTarget: (applicationName) => ({ kind: 'postgres', url, applicationName }),
    ping: (deadlineMs) => ping(store, deadlineMs),
    schemaState: () => schemaState(store),
    close: async () => {
      await feedSharing.close();
      await store.pool.end();
    },
  };
}
