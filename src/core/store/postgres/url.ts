import { usageError } from '../../errors.js';

/** Whether a database setting names PostgreSQL (`postgres://…` or `postgresql://…`). */
export const isPostgresUrl = (value: string): boolean => /^postgres(?:ql)?:\/\//i.test(value.trim());

/**
 * `host:port/database` of a PostgreSQL URL: how errors and logs name the database. Never the user's
 * password, nor the query string (which may carry `password=` or a client key path).
 */
export function describeDatabase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError('the database URL cannot be read (expected postgres://user@host:port/database)');
  }
  if (!isPostgresUrl(url)) {
    throw usageError(
      `the database URL must start with postgres:// or postgresql:// (got ${parsed.protocol})`,
    );
  }
  const host = parsed.hostname === '' ? 'localhost' : parsed.hostname;
  const port = parsed.port === '' ? '5432' : parsed.port;
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.username || 'postgres';
  return `${host}:${port}/${database}`;
}

/**
 * The PostgreSQL database bankops is configured to use (`BANKOPS_DATABASE_URL`), or undefined for the
 * SQLite file. A value that is not a PostgreSQL URL is refused, naming the variable.
 */
export function databaseUrlOf(env: Record<string, string | undefined>): string | undefined {
  const value = env.BANKOPS_DATABASE_URL?.trim();
  if (value === undefined || value === '') return undefined;
  if (!isPostgresUrl(value)) {
    throw usageError('BANKOPS_DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return value;
}
