import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { appliedMigrations, knownMigrations } from '../../app/sqlite-schema.js';
import type { Config } from '../../core/config.js';
import { messageOf } from '../../core/errors.js';
import {
  auditGuardWarning,
  inspectDatabase,
  type PgDatabaseState,
} from '../../core/store/postgres/inspect.js';
import type { Field } from '../../present/output/index.js';
import { commandPool } from './db-target.js';

/** What `config check` found of the database: shown as a record, and in `--json`. */
export interface DatabaseCheck {
  json: {
    backend: 'sqlite' | 'postgres';
    where: string;
    /** False when it could not be reached (PostgreSQL) or read (SQLite). */
    reachable: boolean;
    /** PostgreSQL: the role the URL logs in as, the schema's version and the audit log's guard. */
    role?: string;
    version?: number;
    latest?: number;
    auditGuard?: PgDatabaseState['auditGuard'];
    /** SQLite: whether the file exists yet (made at first use). */
    exists?: boolean;
  };
  fields: Field[];
  /** What stops every front end (unreachable, newer than this bankops): exit status 1. */
  blocking?: string;
  /** What an operator should know and fix, though bankops runs (the audit log's guard). */
  warnings: string[];
}

const field = (label: string, text: string): Field => ({ key: label, label, value: { text, kind: 'text' } });

const GUARD_WORDS: Record<NonNullable<PgDatabaseState['auditGuard']>, string> = {
  'append-only': 'this role may only read and append to it: the database keeps it append-only',
  triggers: 'this role may also update or delete it, which only its triggers refuse',
  owner: 'this role owns it (or is a superuser) and could turn its triggers off',
};

/**
 * Connects to the configured database and says whether it answers, its schema's version against
 * this bankops's, and on PostgreSQL how the audit log is guarded against the role of the URL. Reads
 * only: nothing is created or migrated. A connection takes at most 3 s.
 */
export async function checkDatabase(config: Config): Promise<DatabaseCheck> {
  return config.databaseUrl === undefined
    ? checkSqlite(config.databasePath)
    : checkPostgres(config.databaseUrl);
}

async function checkPostgres(url: string): Promise<DatabaseCheck> {
  const store = commandPool(url, 'config check', { connectionTimeoutMs: 3_000 });
  try {
    const state = await inspectDatabase(store);
    return describePostgres(store.where, state);
  } catch (error) {
    const why = messageOf(error).split('\n')[0] ?? '';
    return {
      json: { backend: 'postgres', where: store.where, reachable: false },
      fields: [field('PostgreSQL', `${store.where}: does not answer`)],
      blocking: why,
      warnings: [],
    };
  } finally {
    await store.pool.end();
  }
}

function describePostgres(where: string, state: PgDatabaseState): DatabaseCheck {
  const { role, version, latest, auditGuard } = state;
  const json = { backend: 'postgres' as const, where, reachable: true, role, version, latest, auditGuard };
  const schema =
    version === latest
      ? `version ${version}, up to date`
      : version === 0
        ? 'empty: serve creates the tables at start if this role may, or run `bankops db migrate --grant <runtime role>` as their owner first (docs/deploy.md)'
        : version < latest
          ? `version ${version}, this bankops needs ${latest}: run \`bankops db migrate\` as the tables' owner`
          : `version ${version}`;
  const fields = [field('PostgreSQL', `${where}, logged in as ${role}`), field('Schema', schema)];
  if (auditGuard !== undefined) fields.push(field('Audit log', GUARD_WORDS[auditGuard]));
  const check: DatabaseCheck = { json, fields, warnings: [] };
  if (version > latest)
    check.blocking = `the database at ${where} has schema version ${version}, newer than this bankops knows (${latest}): upgrade bankops`;
  const warning = auditGuardWarning(state);
  if (warning !== undefined) check.warnings.push(warning);
  return check;
}

function checkSqlite(file: string): DatabaseCheck {
  const json = { backend: 'sqlite' as const, where: file, reachable: true };
  if (file === ':memory:' || !existsSync(file)) {
    return {
      json: { ...json, exists: false },
      fields: [field('SQLite', `${file}: made at first use`)],
      warnings: [],
    };
  }
  let applied: string[];
  try {
    // Read only, and without waiting for a writer: a running serve keeps the file in WAL mode.
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      applied = appliedMigrations(db);
    } finally {
      db.close();
    }
  } catch (error) {
    const why = messageOf(error).split('\n')[0] ?? '';
    return {
      json: { ...json, reachable: false, exists: true },
      fields: [field('SQLite', `${file}: cannot be read`)],
      blocking: `the database ${file} cannot be read: ${why}`,
      warnings: [],
    };
  }
  // Each store makes its tables when first opened (Slack's by `serve`): only unknown ones matter.
  const known = knownMigrations();
  const unknown = applied.filter((name) => !known.has(name));
  const check: DatabaseCheck = {
    json: { ...json, exists: true },
    fields: [
      field('SQLite', file),
      field(
        'Schema',
        unknown.length > 0 ? `written by a newer bankops (${unknown.join(', ')})` : 'known to this bankops',
      ),
    ],
    warnings: [],
  };
  if (unknown.length > 0)
    check.blocking = `the database ${file} has migrations this bankops does not know (${unknown.join(', ')}): upgrade bankops`;
  return check;
}
