import type pg from 'pg';
import { usageError } from '../../errors.js';

/** A role name usable as an SQL identifier as it is (PostgreSQL folds unquoted names to lower case). */
export const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function roleIdentifier(role: string): string {
  if (!ROLE_NAME.test(role)) {
    throw usageError(`'${role}' is not a usable role name (lower-case letters, digits and _, at most 63)`);
  }
  return `"${role}"`;
}

/**
 * The schema's functions the runtime role calls (named, not every function in the schema: an
 * extension installed there, dblink say, is not the runtime's to call).
 */
const RUNTIME_FUNCTIONS = ['audit_lock_head', 'audit_append', 'money_holds_count'] as const;

/**
 * What the runtime role (the one `bankops serve` logs in as) may do, after the owner role created
 * the tables: read and write every table, except the audit log, which it may only read and append
 * to, and the schema version, which it may only read; and call the functions it uses, also where
 * PUBLIC may not. Applied by `migrate` after every run (new tables get their grants too);
 * docs/deploy.md quotes it.
 */
export function runtimeGrantsSql(runtimeRole: string): string {
  const role = roleIdentifier(runtimeRole);
  return [
    `GRANT USAGE ON SCHEMA public TO ${role};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role};`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role};`,
    `GRANT EXECUTE ON FUNCTION ${RUNTIME_FUNCTIONS.join(', ')} TO ${role};`,
    `REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM ${role};`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON schema_version FROM ${role};`,
  ].join('\n');
}

/** Applies `runtimeGrantsSql` in the caller's transaction (as the tables' owner). */
export async function grantRuntimeRole(client: pg.ClientBase, runtimeRole: string): Promise<void> {
  await client.query(runtimeGrantsSql(runtimeRole));
}
