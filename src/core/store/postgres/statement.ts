import type pg from 'pg';
import { databaseUnreachable, isUnreachable } from './errors.js';
import type { PgStore } from './pool.js';

/**
 * One statement on any pooled connection, committed on its own: for what a single statement decides
 * (an insert-if-absent, a conditional update). It is not retried: a connection cut while it ran may
 * have committed it, and the caller's answer (won or not) would be wrong the second time. An
 * unreachable server gives the one-line error naming the database.
 */
export async function statement<R extends pg.QueryResultRow>(
  store: PgStore,
  text: string,
  values: readonly unknown[] = [],
): Promise<pg.QueryResult<R>> {
  try {
    return await store.pool.query<R>(text, [...values]);
  } catch (error) {
    throw isUnreachable(error) ? databaseUnreachable(store.where, error) : error;
  }
}
