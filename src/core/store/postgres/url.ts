import { usageError } from '../../errors.js';

/** Whether a database setting names PostgreSQL (`postgres://…` or `postgresql://…`). */
export const isPostgresUrl = (value: string): boolean => /^postgres(?:ql)?:\/\//i.test(value.trim());

/** Where a PostgreSQL URL leads: host (or a Unix socket's directory), port, database. */
interface PostgresTarget {
  host: string;
  port: string;
  database: string;
}

/**
 * The host, port and database of a PostgreSQL URL as node-postgres and libpq read it, or undefined
 * when it cannot be read: `host` and `port` in the query win over the authority (a Unix socket's
 * directory is one: `postgres://user@/bankops?host=/var/run/postgresql`); a percent-encoded host is
 * decoded. Reads nothing else (no file the query names).
 */
export function readPostgresUrl(url: string): PostgresTarget | undefined {
  const value = url.trim();
  if (!isPostgresUrl(value)) return undefined;
  // No host before the path (`user@/db`, `postgres:///db`): readable once one stands in for it.
  const stand = value.replace(/^(postgres(?:ql)?:\/\/(?:[^/?#@]*@)?)(?=[/?#]|$)/i, '$1localhost');
  if (!URL.canParse(stand)) return undefined;
  const parsed = new URL(stand);
  const hostless = stand !== value;
  const queried = parsed.searchParams.get('host');
  if (hostless && (queried === null || queried === '') && !/^postgres(?:ql)?:\/\/\//i.test(value))
    return undefined;
  const host = queried || (hostless ? 'localhost' : decodeURIComponent(parsed.hostname)) || 'localhost';
  return {
    host,
    port: parsed.searchParams.get('port') || parsed.port || '5432',
    database:
      decodeURIComponent(parsed.pathname.replace(/^\//, '')) ||
      decodeURIComponent(parsed.username) ||
      'postgres',
  };
}

/**
 * `host:port/database` of a PostgreSQL URL (a socket's directory as the host): how errors and logs
 * name the database. Never the user's password, nor the rest of the query string (which may carry
 * `password=` or a client key path).
 */
export function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url.trim())?.[0];
    throw usageError(
      scheme === undefined
        ? 'the database URL cannot be read (expected postgres://user@host:port/database)'
        : `the database URL must start with postgres:// or postgresql:// (got ${scheme})`,
    );
  }
  const target = readPostgresUrl(url);
  if (target === undefined)
    throw usageError('the database URL cannot be read (expected postgres://user@host:port/database)');
  return `${target.host}:${target.port}/${target.database}`;
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
