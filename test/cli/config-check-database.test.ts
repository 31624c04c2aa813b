import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db.js';
import { LATEST_VERSION } from '../../src/core/store/postgres/schema/index.js';
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

  it('refuses a file written by a newer bankops: exit 1, no front end ready', async () => {
    const db = openDatabase(home.dbPath);
    db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    db.prepare("INSERT INTO schema_migrations VALUES ('zz/999-future', '2030-01-01')").run();
    db.close();
    const { code, checked, text } = await check({});
    expect(code).toBe(1);
    expect(checked.problems).toEqual([
      `the database ${home.dbPath} has migrations this bankops does not know (zz/999-future): upgrade bankops`,
    ]);
    expect(checked.frontEnds.filter((end) => end.ready)).toEqual([]);
    expect(text).toContain('written by a newer bankops (zz/999-future)');
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

  it('warns when the role owns the audit log, and is quiet for a runtime role that may only append', async () => {
    const runtime = await database.createRole('runtime');
    const migrated = await runCliHere(
      ['db', 'migrate', '--url', database.url(), '--grant', runtime],
      home.env,
    );
    expect(migrated.code, migrated.stderr).toBe(0);

    const owner = await check(on(database.url()));
    expect(owner.code).toBe(0);
    expect(owner.checked.database).toMatchObject({ version: LATEST_VERSION, auditGuard: 'owner' });
    expect(owner.checked.warnings).toEqual([
      expect.stringContaining("postgres owns the audit log's table (or is a superuser)"),
    ]);
    expect(owner.text).toContain(`version ${LATEST_VERSION}, up to date`);

    // A password in the URL is never shown (the server's trust authentication ignores it).
    const asRuntime = new URL(database.url(runtime));
    asRuntime.password = 's3cret';
    const app = await check(on(asRuntime.toString()));
    expect(app.code).toBe(0);
    expect(app.checked.database).toMatchObject({ role: runtime, auditGuard: 'append-only' });
    expect(app.checked.warnings).toEqual([]);
    expect(app.text).toContain('this role may only read and append to it');
    expect(`${app.text}${JSON.stringify(app.checked)}`).not.toContain('s3cret');

    await database.store().pool.query(`GRANT UPDATE ON audit_log TO "${runtime}"`);
    const loose = await check(on(database.url(runtime)));
    expect(loose.checked.database).toMatchObject({ auditGuard: 'triggers' });
    expect(loose.checked.warnings).toEqual([
      `${runtime} may update or delete audit log rows (only the table's triggers refuse): \`bankops db migrate --grant ${runtime}\`, run as the owner, takes that back`,
    ]);
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

  it('names a database that refuses the login, in one line, exit 1', async () => {
    const { code, checked } = await check(on(database.url('bankops_nobody_here')));
    expect(code).toBe(1);
    expect(checked.database).toEqual({ backend: 'postgres', where, reachable: false });
    expect(checked.problems).toEqual([
      `bankops cannot reach its database at ${where} (not allowed to connect)`,
    ]);
  });
});
