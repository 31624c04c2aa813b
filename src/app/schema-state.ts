import type { Backend } from '../core/store/backend.js';
import { schemaVersion } from '../core/store/postgres/migrate.js';
import { LATEST_VERSION } from '../core/store/postgres/schema/index.js';
import { appliedMigrations, knownMigrations } from './sqlite-schema.js';

/**
 * The database's schema against this bankops: `current`, `behind` (restored from before a migration
 * this version made) or `ahead` (a newer bankops migrated it since this process started: the one
 * it would refuse at start).
 */
export type SchemaState = 'current' | 'behind' | 'ahead';

/**
 * How `/readyz` reads the schema of the database this process serves. PostgreSQL: its version
 * (one query on the pool, behind none of this process's transactions). SQLite: whether the file
 * holds migrations this code does not know (a process migrates the file when it opens it, so it is
 * never behind while one runs; Slack's tables exist only where Slack ran, so missing ones say nothing).
 */
export function schemaStateOf(backend: Backend): () => Promise<SchemaState> {
  if (backend.kind === 'postgres') {
    return async () => {
      const version = await schemaVersion(backend.store);
      return version === LATEST_VERSION ? 'current' : version > LATEST_VERSION ? 'ahead' : 'behind';
    };
  }
  let known: Set<string> | undefined;
  return async () => {
    known ??= knownMigrations();
    const unknown = appliedMigrations(backend.db).filter((name) => !known?.has(name));
    return unknown.length > 0 ? 'ahead' : 'current';
  };
}
