import type { FeedSharing } from '../core/approvals/follow.js';
import type { CardDirectory } from '../core/cards.js';
import type { Config } from '../core/config.js';
import { openDatabase } from '../core/db.js';
import { notConfigured } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { optional } from '../core/optional.js';
import type { PayeeDirectory } from '../core/payees.js';
import type { Backend } from '../core/store/backend.js';
import type { Storage } from '../core/store/index.js';
import { sqliteCards } from '../core/store/sqlite/cards.js';
import { sqlitePayees } from '../core/store/sqlite/payees.js';
import { sqliteStorage } from '../core/store/sqlite/storage.js';
import { sqliteWebhookKeys } from '../core/store/sqlite/webhook-keys.js';
import type { WebhookKeyStore } from '../core/webhooks.js';
import { fingerprintKey } from './fingerprint-key.js';

export type { Backend };

/** PostgreSQL's modules, loaded only with a PostgreSQL URL: a SQLite deployment never loads `pg`. */
async function postgresModules() {
  const [cards, sharing, migrate, payees, pool, storage, webhookKeys] = await Promise.all([
    import('../core/store/postgres/cards.js'),
    import('../core/store/postgres/feed-sharing.js'),
    import('../core/store/postgres/migrate.js'),
    import('../core/store/postgres/payees.js'),
    import('../core/store/postgres/pool.js'),
    import('../core/store/postgres/storage.js'),
    import('../core/store/postgres/webhook-keys.js'),
  ]);
  return { ...cards, ...sharing, ...migrate, ...payees, ...pool, ...storage, ...webhookKeys };
}

/** Every store of the core on the chosen backend, and the fingerprint key kept outside it. */
export interface Database extends StorageOnly {
  payees: PayeeDirectory;
  cards: CardDirectory;
  webhookKeys: WebhookKeyStore;
  fingerprintKey: Buffer;
}

/** The core's storage alone, on the chosen backend (commands that need no service, no key). */
export interface StorageOnly {
  backend: Backend;
  /** The SQLite file, or `host:port/db` (never a password): for messages. */
  where: string;
  storage: Storage;
  /** Wake-ups across replicas and consumer groups (PostgreSQL); absent on the SQLite file. */
  feedSharing?: FeedSharing;
  close(): Promise<void>;
}

/**
 * `BANKOPS_DATABASE_URL` set: PostgreSQL, migrated first (under the schema's advisory lock, so
 * replicas starting together apply each version once). Unset: the SQLite file, as it always was.
 * An unreachable server gives the one-line error naming it.
 */
export async function openStorage(config: Config, log?: Logger): Promise<StorageOnly> {
  if (config.databaseUrl === undefined) {
    const db = openDatabase(config.databasePath);
    return {
      backend: { kind: 'sqlite', db },
      where: config.databasePath,
      storage: sqliteStorage(db),
      close: async () => {
        db.close();
      },
    };
  }
  const { createPgPool, migrate, PgFeedSharing, postgresStorage } = await postgresModules();
  const store = createPgPool(config.databaseUrl, optional('log', log));
  try {
    const migrated = await migrate(store);
    // Said by the one replica that applied them; the others found the schema current.
    if (migrated.applied.length > 0)
      log?.info('database migrated', { database: store.where, applied: migrated.applied });
  } catch (error) {
    await store.pool.end();
    throw error;
  }
  const feedSharing = new PgFeedSharing(store, config.databaseUrl, log);
  return {
    backend: { kind: 'postgres', store },
    where: store.where,
    storage: postgresStorage(store),
    feedSharing,
    close: async () => {
      await feedSharing.close();
      await store.pool.end();
    },
  };
}

/** Why this configuration cannot start: PostgreSQL without the operator's fingerprint key file. */
export function missingFingerprintKey(config: Config): string | undefined {
  if (config.databaseUrl === undefined || config.fingerprintKeyFile !== undefined) return undefined;
  return 'BANKOPS_FINGERPRINT_KEY_FILE is required with BANKOPS_DATABASE_URL: every replica reads the same key and it is never stored in the database; make one with `umask 077; openssl rand -hex 32 > FILE`';
}

/**
 * Every store of the core on the chosen backend (`openStorage`). With PostgreSQL the fingerprint
 * key comes from `BANKOPS_FINGERPRINT_KEY_FILE`, required: replicas share it and it is never in the
 * database. With SQLite it stays beside the file as before.
 */
export async function openStores(config: Config, log: Logger): Promise<Database> {
  const missing = missingFingerprintKey(config);
  if (missing !== undefined) throw notConfigured(missing);
  // The operator's file when named (always, with PostgreSQL); else the one beside the SQLite file.
  const key = fingerprintKey(config.databasePath, config.fingerprintKeyFile);
  const opened = await openStorage(config, log);
  const { backend } = opened;
  if (backend.kind === 'sqlite') {
    const { db } = backend;
    return {
      ...opened,
      payees: sqlitePayees(db),
      cards: sqliteCards(db),
      webhookKeys: sqliteWebhookKeys(db),
      fingerprintKey: key,
    };
  }
  const { postgresPayees, postgresCards, postgresWebhookKeys } = await postgresModules();
  const { store } = backend;
  return {
    ...opened,
    payees: postgresPayees(store),
    cards: postgresCards(store),
    webhookKeys: postgresWebhookKeys(store),
    fingerprintKey: key,
  };
}
