import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createPgPool, type PgPoolOptions, type PgStore } from '../../src/core/store/postgres/pool.js';
import { describeDatabase } from '../../src/core/store/postgres/url.js';

/**
 * PostgreSQL for tests: the server named by `BANKOPS_TEST_DATABASE_URL` (default: the one every
 * test machine and CI runs on loopback). Each test file gets a database of its own, created before
 * its tests and dropped after, so files run in parallel.
 */
export const TEST_SERVER_URL =
  process.env.BANKOPS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The server's URL with another database and, optionally, another role. */
export function urlFor(database: string, role?: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${database}`;
  if (role !== undefined) {
    url.username = role;
    url.password = '';
  }
  return url.toString();
}

async function reachable(): Promise<unknown> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether the PostgreSQL tests can run (call once at the top of a file, then
 * `describe.skipIf(!available)`). No server: with `CI=true` this throws, failing the file;
 * elsewhere it says in one line how to run them, and they are skipped.
 */
export async function postgresAvailable(): Promise<boolean> {
  const failure = await reachable();
  if (failure === undefined) return true;
  const where = describeDatabase(TEST_SERVER_URL);
  const why = failure instanceof Error ? failure.message : String(failure);
  if (process.env.CI === 'true') {
    throw new Error(`CI=true and the PostgreSQL test server at ${where} does not answer: ${why}`);
  }
  console.warn(
    `PostgreSQL tests skipped: nothing answers at ${where} (${why}); start PostgreSQL there or set BANKOPS_TEST_DATABASE_URL=postgres://user@host:port/db`,
  );
  return false;
}

/** Runs SQL as the test server's user on its own database (creating databases and roles). */
export async function asServerAdmin<T>(
  work: (client: pg.Client) => Promise<T>,
  database?: string,
): Promise<T> {
  const client = new pg.Client({
    connectionString: database === undefined ? TEST_SERVER_URL : urlFor(database),
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export interface TestDatabase {
  /** The database's name (valid once `beforeAll` ran). */
  readonly name: string;
  /** Its URL as the test server's user, or as `role`. */
  url(role?: string): string;
  /**
   * A new pool on it, closed after the file's tests (not before: keep one for repeated reads, or
   * polling opens a connection per read, and two runs at once exhaust the server's connections).
   */
  store(options?: PgPoolOptions & { role?: string }): PgStore;
  /** A login role that exists until the end of the file (dropped after the database). */
  createRole(label: string): Promise<string>;
}

/**
 * A fresh database for this file's tests (call inside `describe`): created in `beforeAll`, dropped
 * in `afterAll` with every pool opened through `store()` closed first.
 */
export function useTestDatabase(): TestDatabase {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const name = `bankops_test_${suffix}`;
  const stores: PgStore[] = [];
  const roles: string[] = [];
  beforeAll(async () => {
    await asServerAdmin((client) => client.query(`CREATE DATABASE ${ident(name)}`));
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.pool.end()));
    await asServerAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
      for (const role of roles) await client.query(`DROP ROLE IF EXISTS ${ident(role)}`);
    });
  });
  return {
    name,
    url: (role) => urlFor(name, role),
    store: (options = {}) => {
      const { role, ...rest } = options;
      const store = createPgPool(urlFor(name, role), { max: 4, ...rest });
      stores.push(store);
      return store;
    },
    createRole: async (label) => {
      const role = `bankops_${label}_${suffix}`;
      await asServerAdmin((client) => client.query(`CREATE ROLE ${ident(role)} LOGIN`));
      roles.push(role);
      return role;
    },
  };
}

/**
 * The fingerprint key file every replica of a PostgreSQL deployment shares
 * (`BANKOPS_FINGERPRINT_KEY_FILE`): `fingerprint.key` in `dir`, private to its owner. Returns its path.
 */
export function writeFingerprintKey(dir: string): string {
  const file = join(dir, 'fingerprint.key');
  writeFileSync(file, 'cd'.repeat(32), { mode: 0o600 });
  return file;
}

/** A plan node, as EXPLAIN's JSON gives it. */
export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  Plans?: PlanNode[];
}

/** Every node of `plans`, outer first. */
export const planNodes = (plans: readonly PlanNode[]): PlanNode[] =>
  plans.flatMap((plan) => [plan, ...planNodes(plan.Plans ?? [])]);

/**
 * The plans of what `work` runs on `client`, in one transaction, as auto_explain reports them: a
 * function's statements included (their plans are their own, kept for the connection, which no
 * EXPLAIN of the call shows). `work` gets the plans heard so far, and may empty them between
 * steps to tell one step's plans from another's.
 */
export async function reportedPlans<T>(
  client: pg.ClientBase,
  work: (heard: PlanNode[]) => Promise<T>,
): Promise<T> {
  const heard: PlanNode[] = [];
  const listen = (notice: { message?: string | undefined }): void => {
    const json = notice.message?.split('plan:\n')[1];
    if (json !== undefined) heard.push((JSON.parse(json) as { Plan: PlanNode }).Plan);
  };
  client.on('notice', listen);
  try {
    await client.query("LOAD 'auto_explain'");
    await client.query('BEGIN');
    // What to report first: only what runs after the last setting is reported, and all of it.
    for (const [name, value] of Object.entries({
      log_format: 'json',
      log_nested_statements: 'on',
      log_level: 'notice',
      log_analyze: 'on',
      log_buffers: 'on',
      log_min_duration: '0',
    }))
      await client.query(`SELECT set_config('auto_explain.${name}', $1, true)`, [value]);
    heard.length = 0;
    const result = await work(heard);
    await client.query('COMMIT');
    return result;
  } finally {
    client.off('notice', listen);
  }
}
