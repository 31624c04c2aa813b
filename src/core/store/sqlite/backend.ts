import type { Backend, BackendAdmin, Directories } from '../backend.js';
import { onlineBackup } from './backup.js';
import { sqliteCards } from './cards.js';
import { type Db, openDatabase } from './database.js';
import { checkSqlite } from './inspect.js';
import { sqliteKeyChecks } from './key-checks.js';
import { sqlitePayees } from './payees.js';
import { migrateSqlite, unknownMigrations } from './schema.js';
import { sqliteStorage } from './storage.js';
import { sqliteWebhookKeys } from './webhook-keys.js';

/** The SQLite backend, with its connection: for the composition root and tests that read its tables. */
export interface SqliteBackend extends Backend {
  readonly db: Db;
}

/**
 * The administration of the SQLite file `file`: each step opens a connection of its own, and
 * nothing is opened by making it.
 */
export function sqliteAdmin(file: string): BackendAdmin {
  return {
    where: file,
    roles: false,
    migrate: async () => {
      const db = openDatabase(file);
      try {
        return { applied: migrateSqlite(db, file) };
      } finally {
        db.close();
      }
    },
    inspect: async () => checkSqlite(file),
    backup: (target, progress) => onlineBackup(file, target, progress),
    close: async () => undefined,
  };
}

/**
 * bankops's database in the SQLite file `file` (made, with its tables, on first use): one
 * connection, its stores, its directories (their tables made when first used), and its admin.
 */
export function openSqlite(file: string): SqliteBackend {
  const db = openDatabase(file);
  let directories: Directories | undefined;
  return {
    name: 'SQLite',
    where: file,
    db,
    storage: sqliteStorage(db),
    get directories(): Directories {
      directories ??= {
        payees: sqlitePayees(db),
        cards: sqliteCards(db),
        webhookKeys: sqliteWebhookKeys(db),
      };
      return directories;
    },
    keyChecks: sqliteKeyChecks(db),
    capabilities: { commitIsDurable: true },
    admin: sqliteAdmin(file),
    storesOf: async (feature) => (await feature.sqlite())(db),
    threadTarget: () => (file === ':memory:' ? undefined : { kind: 'sqlite', file }),
    schemaState: async () => (unknownMigrations(db).length > 0 ? 'ahead' : 'current'),
    close: async () => {
      db.close();
    },
  };
}
