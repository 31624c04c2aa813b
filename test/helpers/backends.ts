import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Backend } from '../../src/core/store/backend.js';
import { openPostgres, type PostgresBackend } from '../../src/core/store/postgres/backend.js';
import { openSqlite } from '../../src/core/store/sqlite/backend.js';
import { asServerAdmin, postgresAvailable, urlFor } from './postgres.js';

/**
 * A backend of the store contracts: two replicas' `Backend`s on one new database, as
 * `openSqlite` and `openPostgres` build them (two connections, two pools), so each claim has one
 * winner between them.
 */
export interface ContractBackend {
  name: 'SQLite' | 'PostgreSQL';
  twoReplicas(): Promise<[Backend, Backend]>;
}

export interface ContractOptions {
  /**
   * PostgreSQL: a pair on the file's one database, its tables emptied by this `TRUNCATE …` before
   * each pair is handed out. Without it, each pair gets a database of its own (the audit log, which
   * cannot be emptied, needs one).
   */
  truncate?: string;
}

/**
 * Every backend the store contracts run on: SQLite always, PostgreSQL when the test server answers
 * (`postgresAvailable`). Call once at the top of a contract suite (`describe.each`); everything it
 * opened is closed, and every database it made dropped, after the file's tests.
 */
export async function contractBackends(
  label: string,
  options: ContractOptions = {},
): Promise<ContractBackend[]> {
  const dir = mkdtempSync(join(tmpdir(), `bankops-${label}-`));
  const opened: Backend[] = [];
  const databases: string[] = [];
  let made = 0;
  afterAll(async () => {
    await Promise.all(opened.map((backend) => backend.close()));
    rmSync(dir, { recursive: true, force: true });
    if (databases.length > 0)
      await asServerAdmin(async (admin) => {
        for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
  });
  const keep = <T extends Backend>(backends: [T, T]): [T, T] => {
    opened.push(...backends);
    return backends;
  };
  const newDatabase = async (): Promise<string> => {
    const name = `bankops_${label.replaceAll('-', '_')}_${process.pid}_${++made}`;
    await asServerAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
    databases.push(name);
    return urlFor(name);
  };
  // One after the other: the second finds the schema the first migrated.
  const pair = async (url: string): Promise<[PostgresBackend, PostgresBackend]> => {
    const first = await openPostgres(url);
    return keep([first, await openPostgres(url)]);
  };
  const sqlite: ContractBackend = {
    name: 'SQLite',
    twoReplicas: async () => {
      const file = join(dir, `${label}-${++made}.db`);
      return keep([openSqlite(file), openSqlite(file)]);
    },
  };
  if (!(await postgresAvailable())) return [sqlite];
  const { truncate } = options;
  let shared: Promise<[PostgresBackend, PostgresBackend]> | undefined;
  const postgres: ContractBackend = {
    name: 'PostgreSQL',
    twoReplicas: async () => {
      if (truncate === undefined) return pair(await newDatabase());
      shared ??= newDatabase().then(pair);
      const backends = await shared;
      await backends[0].store.pool.query(truncate);
      return backends;
    },
  };
  return [sqlite, postgres];
}
