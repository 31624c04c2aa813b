import { parse } from 'pg-connection-string';
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
 * The host, port and database of a PostgreSQL URL, or undefined when it cannot be read. A URL
 * whose host is a Unix socket's directory in the query (`postgres:///bankops?host=/var/run/
 * postgresql`, or `postgres://user@/bankops?host=…`) is read as node-postgres and libpq read it.
 */
export function readPostgresUrl(url: string): PostgresTarget | undefined {
  const value = url.trim();
  if (!isPostgresUrl(value)) return undefined;
  if (URL.canParse(value)) {
    const parsed = new URL(value);
    const socket = parsed.searchParams.get('host');
    return {
      host: socket?.startsWith('/') ? socket : parsed.hostname || 'localhost',
      port: parsed.port || '5432',
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.username || 'postgres',
    };
  }
  // Only the socket form is left to node-postgres's parser: it takes nearly anything else too.
  if (!/[?&]host=%2F|[?&]host=\//i.test(value)) return undefined;
  try {
    const parsed = parse(value);
    if (parsed.host == null || !parsed.host.startsWith('/')) return undefined;
    return {
      host: parsed.host,
      port: parsed.port || '5432',
      database: parsed.database || parsed.user || 'postgres',
    };
  } catch {
    return undefined;
  }
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
