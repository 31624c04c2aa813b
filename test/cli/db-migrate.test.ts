import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../src/core/store/postgres/schema/index.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { tempDir } from '../helpers/audit.js';
import { runCli, runCliHere } from '../helpers/cli.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';

/** `bankops db migrate` on the SQLite file and on a real PostgreSQL server. */

const tmp = tempDir('bankops-migrate-');
afterAll(() => tmp.cleanup());

describe('bankops db migrate on SQLite', () => {
  const dbPath = join(tmp.dir, 'bankops.db');
  const env = { BANKOPS_DB: dbPath };

  it('applies every store migration once, then is up to date', async () => {
    const first = await runCliHere(['db', 'migrate'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^${dbPath}: applied .*audit/001-log.*slack/001-front-end`));
    const second = await runCliHere(['db', 'migrate'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(`${dbPath}: up to date\n`);
  });

  it('refuses a file migrated by a newer bankops, in one line, exit 1', async () => {
    const db = openDatabase(dbPath);
    db.prepare(
      "INSERT INTO schema_migrations (name, applied_at) VALUES ('zz/999-future', '2030-01-01')",
    ).run();
    db.close();
    const run = await runCliHere(['db', 'migrate'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `bankops: the database ${dbPath} has migrations this bankops does not know (zz/999-future): upgrade bankops\n`,
    );
  });
});

const available = await postgresAvailable();

describe.skipIf(!available)('bankops db migrate on PostgreSQL', () => {
  const database = useTestDatabase();
  const env = { BANKOPS_DB: join(tmp.dir, 'unused.db') };

  it('refuses --print-grants beside --grant: it would only print', async () => {
    const run = await runCliHere(
      ['db', 'migrate', '--url', database.url(), '--grant', 'app', '--print-grants', 'app'],
      env,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--print-grants prints the grants and connects to nothing: give it without --grant',
    );
    expect(run.stdout).toBe('');
  });

  it('prints the runtime role grants without connecting', async () => {
    const run = await runCliHere(
      ['db', 'migrate', '--print-grants', 'bankops_app', '--url', 'postgres://nowhere.invalid/x'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "bankops_app";',
    );
    expect(run.stdout).toContain('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM "bankops_app";');
  });

  it('two processes migrating at once apply the schema once; a third run is up to date', async () => {
    const url = database.url();
    const runs = await Promise.all([
      runCli(['db', 'migrate', '--url', url], env),
      runCli(['db', 'migrate'], { ...env, BANKOPS_DATABASE_URL: url }),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const where = `127.0.0.1:5432/${database.name}`;
    const outputs = runs.map((run) => run.stdout).sort();
    expect(outputs).toEqual([
      `${where}: applied ${MIGRATIONS.map((m) => `version ${m.version}`).join(', ')} (schema version 0 → ${LATEST_VERSION})\n`,
      `${where}: up to date (schema version ${LATEST_VERSION})\n`,
    ]);
    const store = database.store();
    const versions = await store.pool.query('SELECT version FROM schema_version');
    expect(versions.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    const again = await runCliHere(['db', 'migrate'], { ...env, BANKOPS_DATABASE_URL: url });
    expect(again.stdout).toBe(`${where}: up to date (schema version ${LATEST_VERSION})\n`);
  });

  it('--grant gives the runtime role read and append on the audit log only', async () => {
    const role = await database.createRole('runtime');
    const run = await runCliHere(['db', 'migrate', '--url', database.url(), '--grant', role], env);
    expect(run.code, run.stderr).toBe(0);
    const asRuntime = database.store({ role });
    await expect(asRuntime.pool.query('SELECT count(*) FROM audit_log')).resolves.toBeDefined();
    await expect(asRuntime.pool.query("UPDATE audit_log SET actor = 'x'")).rejects.toThrow(
      /permission denied/,
    );
    await expect(
      asRuntime.pool.query('INSERT INTO payees (id, record_json, updated_at) VALUES ($1, $2, $3)', [
        'p',
        '{}',
        'now',
      ]),
    ).resolves.toBeDefined();
  });

  it('--grant lets the runtime role call the functions it uses, also where PUBLIC may not', async () => {
    const role = await database.createRole('caller');
    expect((await runCliHere(['db', 'migrate', '--url', database.url()], env)).code).toBe(0);
    // A hardened database: nobody but the owner and those granted may call a function.
    await database.store().pool.query('REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC');
    const run = await runCliHere(['db', 'migrate', '--url', database.url(), '--grant', role], env);
    expect(run.code, run.stderr).toBe(0);
    const asRuntime = database.store({ role });
    const counted = await asRuntime.pool.query<{ sums: string[] }>(
      "SELECT money_holds_count(ARRAY['requester:ann'], ARRAY['requester'], ARRAY['ann'], ARRAY['USD'], ARRAY[0, 0, 0, 0]::bigint[]) AS sums",
    );
    expect(counted.rows[0]?.sums).toEqual(['0', '0', '0', '0']);
    await expect(asRuntime.pool.query('SELECT seq FROM audit_lock_head()')).resolves.toBeDefined();
  });

  it.skipIf(!existsSync('/var/run/postgresql/.s.PGSQL.5432'))(
    'reaches a server through its Unix socket (the host in the query, as libpq takes it)',
    async () => {
      const url = `postgres://postgres@/${database.name}?host=/var/run/postgresql`;
      const run = await runCliHere(['db', 'migrate'], { ...env, BANKOPS_DATABASE_URL: url });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(
        `/var/run/postgresql:5432/${database.name}: up to date (schema version ${LATEST_VERSION})\n`,
      );
    },
  );

  it('refuses a database newer than the code, in one line, exit 1', async () => {
    const store = database.store();
    await store.pool.query("INSERT INTO schema_version (version, name) VALUES (999, 'future')");
    const run = await runCliHere(['db', 'migrate', '--url', database.url()], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `bankops: the database at 127.0.0.1:5432/${database.name} has schema version 999, newer than this bankops knows (${LATEST_VERSION}): upgrade bankops\n`,
    );
  });

  it('names an unreachable database in one line, exit 1', async () => {
    const run = await runCliHere(['db', 'migrate', '--url', 'postgres://postgres@127.0.0.1:1/none'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('bankops cannot reach its database at 127.0.0.1:1/none (connection refused)\n');
  });
});
