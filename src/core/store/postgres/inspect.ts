import { CodedError, ErrorCode, internalError, messageOf } from '../../errors.js';
import type { DatabaseCheck } from '../backend.js';
import { databaseUnreachable, isLoginRefused, isUnreachable, sqlState } from './errors.js';
import type { PgStore } from './pool.js';
import { LATEST_VERSION } from './schema/index.js';

/** What a PostgreSQL database is to this bankops, read without changing anything. */
export interface PgDatabaseState {
  /** The role the URL logs in as. */
  role: string;
  /** Its schema version (0: never migrated), and the newest this code knows. */
  version: number;
  latest: number;
  /** Tables of bankops without a schema version: not made by `bankops db migrate`. */
  unversioned?: true;
  /**
   * How far the audit log's table is guarded against this role: `append-only` (it may read and
   * insert only), `triggers` (it may also update or delete, which the table's triggers still
   * refuse), `owner` (it owns the table or is a superuser, and could turn those triggers off).
   * Undefined before the first migration.
   */
  auditGuard?: 'append-only' | 'triggers' | 'owner';
}

// Owner: a member of the table's owner role or of its schema's (the database's owner, on PG 15),
// or a superuser. Changes: UPDATE, DELETE or TRUNCATE on the table, or UPDATE on any column.
const STATE_SQL = `SELECT current_user AS role,
  to_regclass('schema_version') IS NOT NULL AS versioned,
  (SELECT pg_has_role(c.relowner, 'MEMBER') OR pg_has_role(n.nspowner, 'MEMBER')
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = to_regclass('audit_log'))
    OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS owns,
  has_table_privilege(to_regclass('audit_log'), 'UPDATE')
    OR has_table_privilege(to_regclass('audit_log'), 'DELETE')
    OR has_table_privilege(to_regclass('audit_log'), 'TRUNCATE')
    OR has_any_column_privilege(to_regclass('audit_log'), 'UPDATE') AS changes`;

interface StateRow {
  role: string;
  versioned: boolean;
  owns: boolean | null;
  /** Null without an audit log table. */
  changes: boolean | null;
}

/**
 * The database's schema version and how its audit log is guarded against the role of the URL
 * (`bankops config check`). Throws the one-line "cannot reach its database" error when the server
 * does not answer or refuses the login.
 */
export async function inspectDatabase(store: PgStore): Promise<PgDatabaseState> {
  try {
    const row = (await store.pool.query<StateRow>(STATE_SQL)).rows[0];
    if (row === undefined) throw internalError('the database answered no row to a state query');
    const version = row.versioned
      ? ((
          await store.pool.query<{ v: number }>(
            'SELECT coalesce(max(version), 0)::int AS v FROM schema_version',
          )
        ).rows[0]?.v ?? 0)
      : 0;
    const state: PgDatabaseState = { role: row.role, version, latest: LATEST_VERSION };
    if (row.changes === null) return state;
    if (!row.versioned) state.unversioned = true;
    return { ...state, auditGuard: row.owns === true ? 'owner' : row.changes ? 'triggers' : 'append-only' };
  } catch (error) {
    if (isUnreachable(error) || isLoginRefused(error)) throw databaseUnreachable(store.where, error);
    throw unreadable(store.where, error);
  }
}

/** The server let this URL in, but its state could not be read: said with the database and the fix. */
function unreadable(where: string, cause: unknown): CodedError {
  const state = sqlState(cause);
  const why =
    state === '42501'
      ? `${messageOf(cause)}; \`bankops db migrate --grant <role>\`, run as the tables' owner, grants the runtime role what bankops needs`
      : state === '57014'
        ? 'a statement ran past its timeout (another session holding a lock?)'
        : (messageOf(cause).split('\n')[0] ?? '');
  return new CodedError({
    code: ErrorCode.NotConfigured,
    message: `the database at ${where} answered, but its state could not be read: ${why}`,
    original: cause,
  });
}

/**
 * What an operator must fix when the role bankops logs in as may change the audit log (it owns the
 * table or its schema, is a superuser, or holds UPDATE, DELETE or TRUNCATE on it); undefined when
 * it may only read and append.
 */
export function auditGuardWarning(state: PgDatabaseState): string | undefined {
  if (state.auditGuard === 'owner')
    return `${state.role} owns the audit log's table or its schema (or is a superuser), so the database alone does not keep the log append-only: run serve as a runtime role that may only read and append to it (\`bankops db migrate --grant <role>\`, docs/deploy.md "Roles")`;
  if (state.auditGuard === 'triggers')
    return `${state.role} may update, delete or truncate audit log rows (only the table's triggers refuse): take UPDATE, DELETE and TRUNCATE on audit_log away from it and from the roles it belongs to (\`bankops db migrate --grant ${state.role}\`, run as the owner, takes away what was granted to it directly)`;
  return undefined;
}

const GUARD_WORDS: Record<NonNullable<PgDatabaseState['auditGuard']>, string> = {
  'append-only': 'this role may only read and append to it: the database keeps it append-only',
  triggers: 'this role may also update or delete it, which only its triggers refuse',
  owner: 'this role owns it (or is a superuser) and could turn its triggers off',
};

/**
 * Whether the database can be used (`bankops config check`), changing nothing: connected to, its
 * schema's version against this bankops's, and how the audit log is guarded against the role of
 * the URL. The pool's timeouts bound how long it waits.
 */
export async function checkPostgres(store: PgStore): Promise<DatabaseCheck> {
  try {
    return describePostgres(store.where, await inspectDatabase(store));
  } catch (error) {
    // Let in but not readable (a missing grant, a lock): it answered; else it did not.
    const answered = error instanceof CodedError && error.code === ErrorCode.NotConfigured;
    return {
      json: { backend: 'postgres', where: store.where, reachable: answered },
      lines: [
        {
          label: 'PostgreSQL',
          text: `${store.where}: ${answered ? 'answers, but cannot be read' : 'does not answer'}`,
        },
      ],
      blocking: messageOf(error).split('\n')[0] ?? '',
      warnings: [],
    };
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
  const lines = [
    { label: 'PostgreSQL', text: `${where}, logged in as ${role}` },
    { label: 'Schema', text: schema },
  ];
  if (auditGuard !== undefined) lines.push({ label: 'Audit log', text: GUARD_WORDS[auditGuard] });
  const check: DatabaseCheck = { json, lines, warnings: [] };
  if (state.unversioned === true)
    check.blocking = `the database at ${where} holds an audit_log table but no schema_version: bankops did not make it; give bankops an empty database`;
  else if (version > latest)
    check.blocking = `the database at ${where} has schema version ${version}, newer than this bankops knows (${latest}): upgrade bankops`;
  const warning = auditGuardWarning(state);
  if (warning !== undefined) check.warnings.push(warning);
  return check;
}
