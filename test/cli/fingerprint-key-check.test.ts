import { createHash, createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { cliHome, runCliHere } from '../helpers/cli.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';

/**
 * The fingerprint key's check value in the database: the first process records it, a process with
 * another key refuses to start naming its file, and `db fingerprint-key --adopt` rotates it on
 * purpose. On the SQLite file and on PostgreSQL alike.
 */

let home: ReturnType<typeof cliHome>;
beforeAll(() => {
  home = cliHome();
});
afterAll(() => home.cleanup());

/** A key file of its own: `name` in the home, mode 0600; its path and its hex. */
function newKey(name: string): { file: string; hex: string } {
  const hex = randomBytes(32).toString('hex');
  const file = join(home.dir, name);
  writeFileSync(file, `${hex}\n`, { mode: 0o600 });
  return { file, hex };
}

const checkOf = (hex: string): string =>
  createHmac('sha256', Buffer.from(hex, 'hex')).update('bankops fingerprint key check 1').digest('hex');

/** The scenario on one database: `env` names it, `stored` reads the recorded check values. */
async function rotates(
  label: string,
  env: Record<string, string>,
  stored: () => Promise<{ name: string; value: string }[]>,
): Promise<void> {
  const first = newKey(`${label}-first.key`);
  const other = newKey(`${label}-other.key`);
  const withKey = (key: { file: string }) => ({ ...env, BANKOPS_FINGERPRINT_KEY_FILE: key.file });

  const started = await runCliHere(['approvals', 'list'], withKey(first));
  expect(started.code, started.stderr).toBe(0);
  // An HMAC of a fixed label under the key: it tells keys apart and holds nothing of the key.
  expect(await stored()).toEqual([{ name: 'fingerprint-key', value: checkOf(first.hex) }]);
  expect(JSON.stringify(await stored())).not.toContain(first.hex);

  const refused = await runCliHere(['approvals', 'list'], withKey(other));
  expect(refused.code).toBe(2);
  expect(refused.stdout).toBe('');
  expect(refused.stderr.trimEnd().split('\n')).toEqual([
    `bankops: BANKOPS_FINGERPRINT_KEY_FILE ${other.file} is not the key the other processes on this database use (its check value differs): give every replica the same file, or rotate the key on purpose with \`bankops db fingerprint-key --adopt\` (docs/deploy.md)`,
  ]);
  for (const secret of [first.hex, other.hex, checkOf(first.hex), checkOf(other.hex)])
    expect(refused.stderr).not.toContain(secret);

  const adopted = await runCliHere(['db', 'fingerprint-key', '--adopt'], withKey(other));
  expect(adopted.code, adopted.stderr).toBe(0);
  expect(adopted.stdout).toContain(`BANKOPS_FINGERPRINT_KEY_FILE ${other.file} is the fingerprint key`);
  expect(adopted.stdout).toContain('it replaced another');
  expect(adopted.stdout).not.toContain(other.hex);
  expect(await stored()).toEqual([{ name: 'fingerprint-key', value: checkOf(other.hex) }]);

  const again = await runCliHere(['db', 'fingerprint-key', '--adopt'], withKey(other));
  expect(again.stdout).toContain('(it already was)');
  // Each adoption is on record: who, when, and the check values' fingerprints, never the key.
  const tail = await runCliHere(['audit', 'tail', '--json'], withKey(other));
  expect(tail.code, tail.stderr).toBe(0);
  const short = (check: string) => createHash('sha256').update(check).digest('hex').slice(0, 16);
  const adoptions = (tail.json as { tool: string; actor: string; ts: string; input: unknown }[]).filter(
    (e) => e.tool === 'db_fingerprint_key',
  );
  expect(adoptions.map((e) => e.input)).toEqual([
    { adopt: true, before: short(checkOf(first.hex)), after: short(checkOf(other.hex)), replaced: true },
    { adopt: true, before: short(checkOf(other.hex)), after: short(checkOf(other.hex)), replaced: false },
  ]);
  expect(adoptions.every((e) => e.actor.startsWith('cli:') && e.ts !== '')).toBe(true);
  for (const secret of [first.hex, other.hex, checkOf(first.hex), checkOf(other.hex)])
    expect(tail.stdout).not.toContain(secret);
  expect((await runCliHere(['approvals', 'list'], withKey(other))).code).toBe(0);
  const old = await runCliHere(['approvals', 'list'], withKey(first));
  expect(old.code).toBe(2);
  expect(old.stderr).toContain(`BANKOPS_FINGERPRINT_KEY_FILE ${first.file} is not the key`);
}

describe('the fingerprint key check on the SQLite file', () => {
  it('is recorded by the first process, refuses another key, and is rotated on purpose', async () => {
    const file = join(home.dir, 'checked.db');
    await rotates('sqlite', { BANKOPS_DB: file }, async () => {
      const db = openDatabase(file);
      try {
        return db.prepare('SELECT name, value FROM key_checks').all() as { name: string; value: string }[];
      } finally {
        db.close();
      }
    });
  });

  it('checks the key beside the file too, naming it', async () => {
    const file = join(home.dir, 'beside.db');
    expect((await runCliHere(['approvals', 'list'], { BANKOPS_DB: file })).code).toBe(0);
    writeFileSync(join(home.dir, 'beside.key'), randomBytes(32).toString('hex'), { mode: 0o600 });
    const refused = await runCliHere(['approvals', 'list'], { BANKOPS_DB: file });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `bankops: the fingerprint key ${join(home.dir, 'beside.key')} (BANKOPS_FINGERPRINT_KEY_FILE unset) is not the key`,
    );
  });

  it('takes --adopt and nothing else', async () => {
    const run = await runCliHere(['db', 'fingerprint-key'], { BANKOPS_DB: join(home.dir, 'x.db') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('db fingerprint-key takes --adopt');
  });
});

const available = await postgresAvailable();

describe.skipIf(!available)('the fingerprint key check on PostgreSQL', () => {
  const database = useTestDatabase();

  it('is recorded by the first process, refuses another key, and is rotated on purpose', async () => {
    const store = database.store();
    await rotates('postgres', { BANKOPS_DATABASE_URL: database.url() }, async () => {
      const found = await store.pool.query<{ name: string; value: string }>(
        'SELECT name, value FROM key_checks',
      );
      return found.rows;
    });
  });
});
