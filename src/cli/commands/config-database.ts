import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../../core/config.js';
import { CodedError, ErrorCode, messageOf } from '../../core/errors.js';
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
    /** SQLite: whether the file exists yet (made at first use); not opened. */
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

/** How long the check waits for the server: to connect, then for each of its two statements. */
const WAIT_MS = 3_000;

/**
 * Says whether the configured database can be used, without changing it. PostgreSQL: connected to
 * (`WAIT_MS` for the connection and for each statement), its schema's version against this
 * bankops's, and how the audit log is guarded against the role of the URL. SQLite: whether this
 * user may read and write the file and its directory; the file is not opened (a read-only open
 * would still leave the write-ahead log's files beside it).
 */
export async function checkDatabase(config: Config): Promise<DatabaseCheck> {
  return config.databaseUrl === undefined
    ? checkSqlite(config.databasePath)
    : checkPostgres(config.databaseUrl);
}

async function checkPostgres(url: string): Promise<DatabaseCheck> {
  const store = commandPool(url, 'config check', {
    connectionTimeoutMs: WAIT_MS,
    statementTimeoutMs: WAIT_MS,
    queryTimeoutMs: WAIT_MS + 500,
  });
  try {
    const state = await inspectDatabase(store);
    return describePostgres(store.where, state);
  } catch (error) {
    // Let in but not readable (a missing grant, a lock): it answered; else it did not.
    const answered = error instanceof CodedError && error.code === ErrorCode.NotConfigured;
    return {
      json: { backend: 'postgres', where: store.where, reachable: answered },
      fields: [
        field(
          'PostgreSQL',
          `${store.where}: ${answered ? 'answers, but cannot be read' : 'does not answer'}`,
        ),
      ],
      blocking: messageOf(error).split('\n')[0] ?? '',
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
    state.unversioned === true
      ? 'not made by bankops (tables, no schema_version)'
      : version === latest
        ? `version ${version}, up to date`
        : version === 0
          ? 'empty: serve creates the tables at start if this role may, or run `bankops db migrate --grant <runtime role>` as their owner first (docs/deploy.md)'
          : version < latest
            ? `version ${version}, this bankops needs ${latest}: run \`bankops db migrate\` as the tables' owner`
            : `version ${version}`;
  const fields = [field('PostgreSQL', `${where}, logged in as ${role}`), field('Schema', schema)];
  if (auditGuard !== undefined) fields.push(field('Audit log', GUARD_WORDS[auditGuard]));
  const check: DatabaseCheck = { json, fields, warnings: [] };
  if (state.unversioned === true)
    check.blocking = `the database at ${where} holds an audit_log table but no schema_version: bankops did not make it; give bankops an empty database`;
  else if (version > latest)
    check.blocking = `the database at ${where} has schema version ${version}, newer than this bankops knows (${latest}): upgrade bankops`;
  const warning = auditGuardWarning(state);
  if (warning !== undefined) check.warnings.push(warning);
  return check;
}

function checkSqlite(file: string): DatabaseCheck {
  const json = { backend: 'sqlite' as const, where: file, reachable: true };
  if (file === ':memory:')
    return { json, fields: [field('SQLite', 'in memory, this process only')], warnings: [] };
  const path = resolve(file);
  const exists = existsSync(path);
  // SQLite writes beside the file (its write-ahead log), so the directory must be writable too.
  const missing = [
    ...(exists ? unusable(path, constants.R_OK | constants.W_OK, 'read and write') : []),
    ...unusable(nearestDirectory(dirname(path)), constants.W_OK | constants.X_OK, 'write in'),
  ];
  const size = exists ? `, ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB` : '';
  const check: DatabaseCheck = {
    json: { ...json, exists },
    fields: [field('SQLite', exists ? `${file}${size}` : `${file}: made at first use`)],
    warnings: [],
  };
  if (missing.length > 0) {
    check.json.reachable = false;
    check.blocking = `this user cannot ${missing.join(', nor ')}: bankops needs to read and write the database and create files beside it`;
  }
  return check;
}

/** What this user may not do to `path` (`how` in words), or nothing. */
function unusable(path: string, mode: number, how: string): string[] {
  try {
    accessSync(path, mode);
    return [];
  } catch {
    return [`${how} ${path}`];
  }
}

/** The directory itself, or the nearest one above it that exists (the others are made at first use). */
function nearestDirectory(dir: string): string {
  let current = dir;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}
