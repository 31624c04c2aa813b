import pg from 'pg';
import type { Logger } from '../../log.js';
import { databaseUnreachable } from './errors.js';
import { describeDatabase } from './url.js';

export interface PgPoolOptions {
  /** Shown in `pg_stat_activity` (default `bankops`): which replica or tool holds a session. */
  applicationName?: string;
  /** Connections at most (default 10). */
  max?: number;
  /** Giving up on a new connection (default 5 s). */
  connectionTimeoutMs?: number;
  /** The server cancels a statement running longer (default 15 s). */
  statementTimeoutMs?: number;
  /**
   * This process gives up waiting for a statement's answer (default the statement timeout + 5 s),
   * and drops the connection: a network that silently stops carrying packets would otherwise leave
   * the statement, and whoever waits for it, hanging for as long as TCP keeps the connection.
   */
  queryTimeoutMs?: number;
  /**
   * The server ends a session idle inside a transaction this long (default 60 s): a replica that
   * hangs while holding a row lock (a feed group, an outbox claim) releases it.
   */
  idleInTransactionTimeoutMs?: number;
  /** Where a failing idle connection is reported (the pool replaces it). */
  log?: Pick<Logger, 'warn'>;
}

/** A pool and the name of its database (`host:port/db`, never a password) for errors and logs. */
export interface PgStore {
  pool: pg.Pool;
  where: string;
}

/**
 * `bigint` columns (sequence numbers, counters, milliseconds) as JavaScript numbers: they stay far
 * below 2^53. For this pool only, not for every user of `pg` in the process.
 */
function bankopsTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  return types;
}

/** A pool for a `postgres://` or `postgresql://` URL; nothing is connected until first use. */
export function createPgPool(url: string, options: PgPoolOptions = {}): PgStore {
  const where = describeDatabase(url);
  const statementTimeoutMs = options.statementTimeoutMs ?? 15_000;
  const pool = new pg.Pool({
    connectionString: url,
    application_name: options.applicationName ?? 'bankops',
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    statement_timeout: statementTimeoutMs,
    query_timeout: options.queryTimeoutMs ?? statementTimeoutMs + 5_000,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 60_000,
    keepAlive: true,
    types: bankopsTypes(),
  });
  // An idle connection that the server closes (a restart, a failover) emits here; unheard, the
  // event would end the process. The pool drops that connection and opens another when needed.
  pool.on('error', (error) => {
    options.log?.warn('database connection lost', { database: where, error: error.message });
  });
  // The same for a connection checked out when it is lost: the query in flight rejects with the
  // error (and `withTransaction` decides about it); the event alone must not end the process.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return { pool, where };
}

/** Checks out a connection, or throws the one-line "cannot reach its database at …" error. */
export async function connect(store: PgStore): Promise<pg.PoolClient> {
  try {
    return await store.pool.connect();
  } catch (error) {
    throw databaseUnreachable(store.where, error);
  }
}

/**
 * Whether the database answers now (for health checks): a round trip straight on the pool (behind
 * no transaction of this process), no error thrown; with `timeoutMs`, a connection that gives no
 * answer by then is dropped and the answer is no.
 */
export async function ping(store: PgStore, timeoutMs?: number): Promise<boolean> {
  try {
    // node-postgres takes a per-query timeout its types do not list.
    const query: pg.QueryConfig & { query_timeout?: number } = { text: 'SELECT 1' };
    if (timeoutMs !== undefined) query.query_timeout = timeoutMs;
    await store.pool.query(query);
    return true;
  } catch {
    return false;
  }
}

/** What runs a statement: a pool (each statement on any connection) or one connection. */
export type Queryable = Pick<pg.ClientBase, 'query'>;
