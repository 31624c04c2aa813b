import { CodedError, ErrorCode } from '../../errors.js';
import type { SchemaState } from '../backend.js';
import { sqlState } from './errors.js';
import { LockKey, lockForTransaction } from './locks.js';
import type { PgStore, Queryable } from './pool.js';
import { grantRuntimeRole, ROLE_NAME } from './roles.js';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './schema/index.js';
import { withTransaction } from './transaction.js';

export interface MigrateOptions {
  /** The role `serve` runs as: given its grants after the tables exist (../roles.ts). */
  runtimeRole?: string;
  /** The versions to apply (tests); default every version this code knows. */
  migrations?: readonly Migration[];
}

export interface MigrateResult {
  /** The schema version before and after. */
  from: number;
  to: number;
  /** Versions this call applied (empty when another replica had already). */
  applied: number[];
}

const VERSION_TABLE = `CREATE TABLE IF NOT EXISTS schema_version (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

async function currentVersion(client: Queryable): Promise<number> {
  const row = await client.query<{ v: number }>(
    'SELECT coalesce(max(version), 0)::int AS v FROM schema_version',
  );
  return row.rows[0]?.v ?? 0;
}

/** The schema's version; a role not granted to read it (after a copy, before `--grant`) is told how. */
async function readableVersion(store: PgStore, client: Queryable): Promise<number> {
  const may = await client.query<{ role: string; readable: boolean }>(
    "SELECT current_user AS role, has_table_privilege('schema_version', 'SELECT') AS readable",
  );
  const row = may.rows[0];
  if (row !== undefined && !row.readable) {
    throw new CodedError({
      code: ErrorCode.NotConfigured,
      message: `${row.role} may not read the database at ${store.where}: run \`bankops db migrate --grant ${ROLE_NAME.test(row.role) ? row.role : '<role>'}\` as the role that owns the tables`,
    });
  }
  return currentVersion(client);
}

/** Runs DDL; a role that may not (the runtime role) is told who must migrate. */
async function ownerOnly(
  store: PgStore,
  from: number,
  latest: number,
  ddl: () => Promise<unknown>,
): Promise<void> {
  try {
    await ddl();
  } catch (error) {
    if (sqlState(error) !== '42501') throw error;
    throw new CodedError({
      code: ErrorCode.NotConfigured,
      message: `the database at ${store.where} has schema version ${from} and this bankops needs ${latest}: run \`bankops db migrate\` as the role that owns the tables`,
      original: error,
    });
  }
}

/**
 * Brings the database to the newest schema this code knows, in one transaction under an advisory
 * lock: replicas that start together wait for each other, and the second finds nothing to do. A
 * database whose version is newer than the code (a newer bankops migrated it) is refused, before
 * anything is changed: this code cannot know what its tables mean now.
 */
export async function migrate(store: PgStore, options: MigrateOptions = {}): Promise<MigrateResult> {
  const migrations = options.migrations ?? MIGRATIONS;
  const latest =
    options.migrations === undefined ? LATEST_VERSION : Math.max(0, ...migrations.map((m) => m.version));
  return withTransaction(store, async (client) => {
    await lockForTransaction(client, LockKey.Migrate);
    const exists = await client.query<{ t: string | null }>(
      "SELECT to_regclass('schema_version')::text AS t",
    );
    // Created only when missing: CREATE needs a privilege the runtime role lacks, even with IF NOT EXISTS.
    if (exists.rows[0]?.t === null) await ownerOnly(store, 0, latest, () => client.query(VERSION_TABLE));
    const from = await readableVersion(store, client);
    if (from > latest) {
      throw new CodedError({
        code: ErrorCode.NotConfigured,
        message: `the database at ${store.where} has schema version ${from}, newer than this bankops knows (${latest}): upgrade bankops`,
      });
    }
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= from) continue;
      await ownerOnly(store, from, latest, async () => {
        for (const statement of migration.statements) await client.query(statement);
      });
      await client.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    if (options.runtimeRole !== undefined) await grantRuntimeRole(client, options.runtimeRole);
    return { from, to: Math.max(from, ...applied), applied };
  });
}

/** The schema version of a database (0 when never migrated), without changing anything. */
export async function schemaVersion(store: PgStore): Promise<number> {
  const exists = await store.pool.query<{ t: string | null }>(
    "SELECT to_regclass('schema_version')::text AS t",
  );
  if (exists.rows[0]?.t === null) return 0;
  return currentVersion(store.pool);
}

/** The schema's version against this bankops (`/readyz`): one query on the pool. */
export async function schemaState(store: PgStore): Promise<SchemaState> {
  const version = await schemaVersion(store);
  return version === LATEST_VERSION ? 'current' : version > LATEST_VERSION ? 'ahead' : 'behind';
}
