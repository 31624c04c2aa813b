import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '../../src/core/store/postgres/schema/index.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { cliHome, runCliHere } from '../helpers/cli.js';
import { postgresAvailable, useTestDatabase, writeFingerprintKey } from '../helpers/postgres.js';

/**
 * `bankops config check` connects to the database it is configured with and says what it is:
 * reachable or not, its schema against this bankops, and how the audit log is guarded against the
 * role of the URL. A real SQLite file and a real PostgreSQL server.
 */

interface Checked {
  frontEnds: { name: string; ready: boolean; words: string }[];
  database: Record<string, unknown>;
  problems: string[];
  warnings: string[];
}

let home: ReturnType<typeof cliHome>;
beforeAll(() => {
  home = cliHome();
});
afterAll(() => home.cleanup());

async function check(env: Record<string, string>): Promise<{ code: number; checked: Checked; text: string }> {
  const json = await runCliHere(['config', 'check', '--json'], { ...home.env, ...env });
  const text = await runCliHere(['config', 'check'], { ...home.env, ...env, BANKOPS_OUTPUT: 'text' });
  expect(text.code).toBe(json.code);
  return { code: json.code, checked: JSON.parse(json.stdout) as Checked, text: text.stdout };
}

describe('config check on the SQLite file', () => {
  it('says a file not made yet is made at first use', async () => {
    const { code, checked, text } = await check({});
    expect(code).toBe(0);
    expect(checked.database).toEqual({
      backend: 'sqlite',
      where: home.dbPath,
      reachable: true,
      exists: false,
    });
    expect(text).toContain(`${home.dbPath}: made at first use`);
  });

  it('checks an existing file without opening it: nothing is written beside it', async () => {
    const db = openDatabase(home.dbPath);
    db.exec('CREATE TABLE t (x)');
    db.close();
    const before = readdirSync(home.dir).sort();
    const { code, checked, text } = await check({});
    expect(code).toBe(0);
    expect(checked.database).toEqual({
      backend: 'sqlite',
      where: home.dbPath,
      reachable: true,
      exists: true,
    });
    expect(text).toMatch(new RegExp(`SQLite +${home.dbPath}, \\d+\\.\\d MB`));
    expect(readdirSync(home.dir).sort()).toEqual(before);
  });
});

const available = await postgresAvailable();

describe.skipIf(!available)('config check on PostgreSQL', () => {
  const database = useTestDatabase();
  let keyFile: string;
  let where: string;
  beforeAll(() => {
    keyFile = writeFingerprintKey(home.dir);
    where = `127.0.0.1:5432/${database.name}`;
  });
  const on = (url: string) => ({ BANKOPS_DATABASE_URL: url, BANKOPS_FINGERPRINT_KEY_FILE: keyFile });

  it('reads an empty database without creating anything in it', async () => {
    const { code, checked, text } = await check(on(database.url()));
    expect(code, checked.problems.join('\n')).toBe(0);
    expect(checked.database).toEqual({
      backend: 'postgres',
      where,
      reachable: true,
      role: 'postgres',
      version: 0,
      latest: LATEST_VERSION,
    });
    expect(text).toContain('empty: serve creates the tables at start if this role may');
    const tables = await database
      .store()
      .pool.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
    expect(tables.rows[0]).toEqual({ n: 0 });
  });

  it('says who may change the audit log: its owner, a member of the owner role, a column grant; not the runtime role', async () => {
    const owner = await database.createRole('owner');
    const member = await database.createRole('member');
    const runtime = await database.createRole('runtime');
    await database.store().pool.query(`GRANT CREATE ON SCHEMA public TO "${owner}"`);
    await database.store().pool.query(`ALTER ROLE "${member}" NOINHERIT`);
    await database.store().pool.query(`GRANT "${owner}" TO "${member}"`);
    const migrated = await runCliHere(
      ['db', 'migrate', '--url', database.url(owner), '--grant', runtime],
      home.env,
    );
    expect(migrated.code, migrated.stderr).toBe(0);

    const asOwner = await check(on(database.url(owner)));
    expect(asOwner.code).toBe(0);
    expect(asOwner.checked.database).toMatchObject({
      role: owner,
      version: LATEST_VERSION,
      auditGuard: 'owner',
    });
    expect(asOwner.checked.warnings).toEqual([
      expect.stringContaining(`${owner} owns the audit log's table or its schema (or is a superuser)`),
    ]);
    expect(asOwner.text).toContain(`version ${LATEST_VERSION}, up to date`);
    // Not inheriting the owner's privileges (reading what it is given), it may still SET ROLE to
    // the owner: an owner all the same.
    await database
      .store({ role: owner })
      .pool.query(`GRANT SELECT ON schema_version, audit_log TO "${member}"`);
    expect((await check(on(database.url(member)))).checked.database).toMatchObject({ auditGuard: 'owner' });
    const superuser = await check(on(database.url()));
    expect(superuser.checked.database).toMatchObject({ role: 'postgres', auditGuard: 'owner' });

    // A password in the URL is never shown (the server's trust authentication ignores it).
    const asRuntime = new URL(database.url(runtime));
    asRuntime.password = 's3cret';
    const app = await check(on(asRuntime.toString()));
    expect(app.code).toBe(0);
    expect(app.checked.database).toMatchObject({ role: runtime, auditGuard: 'append-only' });
    expect(app.checked.warnings).toEqual([]);
    expect(app.text).toContain('this role may only read and append to it');
    expect(`${app.text}${JSON.stringify(app.checked)}`).not.toContain('s3cret');

    await database.store({ role: owner }).pool.query(`GRANT UPDATE (actor) ON audit_log TO "${runtime}"`);
    const loose = await check(on(database.url(runtime)));
    expect(loose.checked.database).toMatchObject({ auditGuard: 'triggers' });
    expect(loose.checked.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${runtime} may update, delete or truncate audit log rows`)),
    ]);
  });

  it('says what it could not read, in one line, when the server answers but a statement cannot (exit 1)', async () => {
    const stranger = await database.createRole('stranger');
    const denied = await check(on(database.url(stranger)));
    expect(denied.code).toBe(1);
    expect(denied.checked.database).toEqual({ backend: 'postgres', where, reachable: true });
    expect(denied.checked.problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the database at ${where} answered, but its state could not be read: permission denied for table schema_version; \`bankops db migrate --grant <role>\``,
        ),
      ),
    ]);

    // Another session holds a lock on the schema's version: the check gives up after its 3 s.
    const holder = database.store();
    const held = await holder.pool.connect();
    try {
      await held.query('BEGIN');
      await held.query('LOCK TABLE schema_version IN ACCESS EXCLUSIVE MODE');
      const started = performance.now();
      const locked = await runCliHere(['config', 'check', '--json'], { ...home.env, ...on(database.url()) });
      expect(locked.code).toBe(1);
      expect(performance.now() - started).toBeLessThan(6_000);
      expect(JSON.parse(locked.stdout).problems).toEqual([
        `the database at ${where} answered, but its state could not be read: a statement ran past its timeout (another session holding a lock?)`,
      ]);
    } finally {
      await held.query('ROLLBACK');
      held.release();
    }
  });

  it('refuses a database newer than this bankops: exit 1, no front end ready', async () => {
    await database.store().pool.query("INSERT INTO schema_version (version, name) VALUES (999, 'future')");
    const { code, checked } = await check(on(database.url()));
    expect(code).toBe(1);
    expect(checked.problems).toEqual([
      `the database at ${where} has schema version 999, newer than this bankops knows (${LATEST_VERSION}): upgrade bankops`,
    ]);
    expect(checked.frontEnds.filter((end) => end.ready)).toEqual([]);
  });

  it('refuses a database holding tables bankops did not make (exit 1)', async () => {
    await database.store().pool.query('ALTER TABLE schema_version RENAME TO schema_version_elsewhere');
    try {
      const { code, checked } = await check(on(database.url()));
      expect(code).toBe(1);
      expect(checked.problems).toEqual([
        `the database at ${where} holds an audit_log table but no schema_version: bankops did not make it; give bankops an empty database`,
      ]);
    } finally {
      await database.store().pool.query('ALTER TABLE schema_version_elsewhere RENAME TO schema_version');
    }
  });

  it('names a database that refuses the login, in one line, exit 1', async () => {
    const { code, checked } = await check(on(database.url('bankops_nobody_here')));
    expect(code).toBe(1);
    expect(checked.database).toEqual({ backend: 'postgres', where, reachable: false });
    expect(checked.problems).toEqual([
      `bankops cannot reach its database at ${where} (not allowed to connect)`,
    ]);
  });
});
