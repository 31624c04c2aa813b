import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, runCliHere } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { writeFingerprintKey } from '../helpers/postgres.js';

/** `BANKOPS_DATABASE_URL` at the CLI: the database it names, never its password. */

let home: ReturnType<typeof cliHome>;
let url: string;
let where: string;
let keyFile: string;

beforeAll(async () => {
  home = cliHome();
  const port = await freePort();
  url = `postgres://ops:s3cret@127.0.0.1:${port}/bank`;
  where = `127.0.0.1:${port}/bank`;
  keyFile = writeFingerprintKey(home.dir);
});
afterAll(() => home.cleanup());

describe('the CLI on PostgreSQL', () => {
  it('says in one line which database it cannot reach, and exits 1', async () => {
    const env = { ...home.env, BANKOPS_DATABASE_URL: url, BANKOPS_FINGERPRINT_KEY_FILE: keyFile };
    for (const args of [
      ['audit', 'verify'],
      ['call', 'list_payees'],
    ]) {
      const run = await runCliHere(args, env);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`bankops cannot reach its database at ${where} (connection refused)\n`);
      expect(run.stdout).toBe('');
    }
  });

  it('refuses to start without the shared fingerprint key file, saying how to make one', async () => {
    const run = await runCliHere(['call', 'list_payees'], { ...home.env, BANKOPS_DATABASE_URL: url });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('BANKOPS_FINGERPRINT_KEY_FILE is required with BANKOPS_DATABASE_URL');
    expect(run.stderr).toContain('openssl rand -hex 32');
  });

  it('config check says the configuration cannot start without a usable fingerprint key file', async () => {
    const without = await runCliHere(['config', 'check', '--json'], {
      ...home.env,
      BANKOPS_DATABASE_URL: url,
    });
    expect(without.code).toBe(2);
    const checked = JSON.parse(without.stdout) as { frontEnds: { ready: boolean }[]; problems: string[] };
    expect(checked.frontEnds.every((end) => !end.ready)).toBe(true);
    // The key first; the database it cannot reach too (an invalid value still exits 2).
    expect(checked.problems).toEqual([
      expect.stringContaining('BANKOPS_FINGERPRINT_KEY_FILE is required'),
      `bankops cannot reach its database at ${where} (connection refused)`,
    ]);

    const short = join(home.dir, 'short.key');
    writeFileSync(short, 'c0ffee42c0ffee', { mode: 0o600 });
    const bad = await runCliHere(['config', 'check', '--json'], {
      ...home.env,
      BANKOPS_DATABASE_URL: url,
      BANKOPS_FINGERPRINT_KEY_FILE: short,
    });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('must hold at least 64 hex characters');
    expect(bad.stdout).not.toContain('c0ffee42c0ffee');
  });

  it('shows the database in config check, without the password, and that it does not answer (exit 1)', async () => {
    const run = await runCliHere(['config', 'check', '--json'], {
      ...home.env,
      BANKOPS_DATABASE_URL: url,
      BANKOPS_FINGERPRINT_KEY_FILE: keyFile,
    });
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({
      database: { backend: 'postgres', where, reachable: false },
      problems: [`bankops cannot reach its database at ${where} (connection refused)`],
    });
    expect(run.stdout).not.toContain('s3cret');
    expect(run.stdout).toContain(`PostgreSQL at ${where}`);
  });

  it('refuses a database URL that is not PostgreSQL', async () => {
    const run = await runCliHere(['config', 'check'], {
      ...home.env,
      BANKOPS_DATABASE_URL: 'mysql://x@h/db',
    });
    expect(run.code).toBe(2);
    expect(run.stderr + run.stdout).toContain(
      'BANKOPS_DATABASE_URL: must start with postgres:// or postgresql://',
    );
  });

  it('says one problem of a URL that is not a database URL at all', async () => {
    const run = await runCliHere(['audit', 'verify'], { ...home.env, BANKOPS_DATABASE_URL: 'garbage' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('BANKOPS_DATABASE_URL: must start with postgres://');
    expect(run.stderr).not.toContain('cannot be read');
  });

  it('refuses a PostgreSQL URL that cannot be read, the same way, naming the variable', async () => {
    const run = await runCliHere(['audit', 'verify'], {
      ...home.env,
      BANKOPS_DATABASE_URL: 'postgres://no host',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'bankops: configuration error:\n  - BANKOPS_DATABASE_URL: cannot be read (expected postgres://user@host:port/database)\n',
    );
  });
});
