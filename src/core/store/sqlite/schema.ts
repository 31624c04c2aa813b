import { CodedError, ErrorCode } from '../../errors.js';
import { sqliteCards } from './cards.js';
import { type Db, openDatabase } from './database.js';
import { sqliteKeyChecks } from './key-checks.js';
import { sqlitePayees } from './payees.js';
import { migrateSlack } from './slack-schema.js';
import { sqliteStorage } from './storage.js';
import { sqliteWebhookKeys } from './webhook-keys.js';

/** Names of the migrations a SQLite database holds (`schema_migrations`), none when it has no table. */
function appliedMigrations(db: Db): string[] {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'");
  if (table.get() === undefined) return [];
  return (db.prepare('SELECT name FROM schema_migrations ORDER BY name').all() as { name: string }[]).map(
    (row) => row.name,
  );
}

/** Makes every table bankops keeps in the SQLite file (each store's migrations, once). */
export function makeSqliteTables(db: Db): void {
  sqliteStorage(db);
  sqlitePayees(db);
  sqliteCards(db);
  sqliteWebhookKeys(db);
  sqliteKeyChecks(db);
  migrateSlack(db);
}

let known: Set<string> | undefined;

/** Every migration this code knows, as the names a fully migrated database records (made once). */
export function knownMigrations(): Set<string> {
  known ??= madeMigrations();
  return known;
}

function madeMigrations(): Set<string> {
  const db = openDatabase(':memory:');
  try {
    makeSqliteTables(db);
    return new Set(appliedMigrations(db));
  } finally {
    db.close();
  }
}

/** Migrations a database holds that this code does not know: a newer bankops wrote them. */
export function unknownMigrations(db: Db): string[] {
  const known = knownMigrations();
  return appliedMigrations(db).filter((name) => !known.has(name));
}

/**
 * Migrations a database holds that this code does not know: a newer bankops wrote it. Refused
 * before anything changes, as on PostgreSQL.
 */
export function refuseNewer(db: Db, file: string): void {
  const unknown = unknownMigrations(db);
  if (unknown.length > 0) {
    throw new CodedError({
      code: ErrorCode.NotConfigured,
      message: `the database ${file} has migrations this bankops does not know (${unknown.join(', ')}): upgrade bankops`,
    });
  }
}

/** Brings the SQLite file to the newest schema; the names of the migrations it applied. */
export function migrateSqlite(db: Db, file: string): string[] {
  refuseNewer(db, file);
  const before = new Set(appliedMigrations(db));
  makeSqliteTables(db);
  return appliedMigrations(db).filter((name) => !before.has(name));
}
