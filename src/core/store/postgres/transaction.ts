import type pg from 'pg';
import { databaseUnreachable, isNoAnswer, isTransient, isUnreachable, sqlState } from './errors.js';
import type { PgStore } from './pool.js';

export interface TransactionOptions {
  /** Default `read committed`; `serializable` for a read-decide-write that takes no row lock. */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  /** Attempts in all, transient failures included (default 4). */
  attempts?: number;
  /** Called before each retry (a log line, a metric). */
  onRetry?: (error: unknown, attempt: number) => void;
  /**
   * Statements sent with BEGIN, in its round trip (one simple query, so literals only; built on
   * the connection, for its quoting); their results, in order, are handed to `work`. Each takes
   * its snapshot after the one before it ended, as if sent one by one.
   */
  begin?: (client: pg.ClientBase) => readonly string[];
}

/** Whether `work` left the connection usable (a lost connection must not return to the pool). */
async function rollback(client: pg.PoolClient): Promise<boolean> {
  try {
    await client.query('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}

/** What the server answers a COMMIT with when the transaction did not commit. */
const NOT_COMMITTED = new Set(['40001', '40P01']);

const backoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

/**
 * Runs `work` in one transaction on one pooled connection: BEGIN, `work(client)`, COMMIT; any throw
 * rolls it all back. A transient failure mid-transaction (serialization, deadlock, a cut
 * connection, the server restarting) runs `work` again from the start, a bounded number of times
 * with jittered backoff, so `work` must do nothing outside the database that it cannot repeat. A
 * COMMIT that gets no answer from the server is not retried: it may have committed, and running
 * again could apply the change twice; the error goes to the caller, who re-reads. A server that
 * cannot be reached gives the one-line error naming the database.
 */
export async function withTransaction<T>(
  store: PgStore,
  work: (client: pg.PoolClient, begun: readonly pg.QueryResult[]) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 4);
  for (let attempt = 1; ; attempt += 1) {
    let client: pg.PoolClient | undefined;
    let committing = false;
    try {
      client = await store.pool.connect();
      const begin = `BEGIN ISOLATION LEVEL ${(options.isolation ?? 'read committed').toUpperCase()}`;
      const first = options.begin?.(client) ?? [];
      // A simple query of several statements answers one result per statement.
      const begun = (await client.query([begin, ...first].join(';\n'))) as unknown as
        | pg.QueryResult
        | pg.QueryResult[];
      const result = await work(client, Array.isArray(begun) ? begun.slice(1) : []);
      committing = true;
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // Only a serialization failure or a deadlock answering the COMMIT says nothing committed;
      // anything else then (a lost connection, a session ended while waiting for a synchronous
      // standby after the local commit) may have committed, and is never run again.
      const ambiguous = committing && !NOT_COMMITTED.has(sqlState(error) ?? '');
      // A statement that got no answer holds the connection: a ROLLBACK would wait behind it.
      const usable = client !== undefined && !ambiguous && !isNoAnswer(error) && (await rollback(client));
      client?.release(usable ? undefined : true);
      // Not connecting at all, or no answer at all, is reported at once (the caller, or its next
      // request, tries again): retrying a host that drops packets would take attempts × the wait,
      // each on the next pooled connection to it, as dead.
      const retry =
        client !== undefined && !ambiguous && !isNoAnswer(error) && isTransient(error) && attempt < attempts;
      if (!retry) {
        throw client === undefined || isUnreachable(error) || (ambiguous && sqlState(error) === undefined)
          ? databaseUnreachable(store.where, error)
          : error;
      }
      options.onRetry?.(error, attempt);
      await backoff(attempt);
    }
  }
}
