import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/core/audit/index.js';
import { type Db, openDatabase } from '../../src/core/store/sqlite/database.js';
import { sqliteStorage } from '../../src/core/store/sqlite/storage.js';
import { sampleEntry, tempDir } from '../helpers/audit.js';
import { runCliHere } from '../helpers/cli.js';

/**
 * `bankops db backup`: a consistent copy of the database while another connection (a running
 * `serve`, here in this process) keeps writing to it.
 */

const tmp = tempDir('bankops-backup-');
const dbPath = join(tmp.dir, 'bankops.db');
const env = { BANKOPS_DB: dbPath };
let db: Db;
let audit: AuditLog;

beforeAll(async () => {
  db = openDatabase(dbPath);
  audit = new AuditLog(sqliteStorage(db));
  for (let i = 0; i < 200; i += 1) await audit.append(sampleEntry(i));
  // About 8 MB besides the log: the copy takes several steps, between which the writer writes.
  db.exec('CREATE TABLE filler (b BLOB)');
  db.transaction(() => {
    const insert = db.prepare('INSERT INTO filler (b) VALUES (randomblob(4000))');
    for (let i = 0; i < 2000; i += 1) insert.run();
  })();
});
afterAll(() => {
  db.close();
  tmp.cleanup();
});

/** Appends audit entries on every turn of the event loop until stopped; resolves to how many. */
function keepWriting(): { stop(): Promise<number> } {
  let written = 0;
  let stopped = false;
  const done = new Promise<number>((resolve) => {
    const step = async (): Promise<void> => {
      if (stopped) {
        resolve(written);
        return;
      }
      await audit.append(sampleEntry(1000 + written));
      written += 1;
      setImmediate(() => void step());
    };
    setImmediate(() => void step());
  });
  return {
    stop: () => {
      stopped = true;
      return done;
    },
  };
}

describe('bankops db backup', () => {
  it('copies the database consistently while another connection writes, readable by its owner only', async () => {
    const before = (await audit.head()).seq;
    const writer = keepWriting();
    const copy = join(tmp.dir, 'copy.db');
    const run = await runCliHere(['db', 'backup', copy], env);
    const written = await writer.stop();
    expect(run.code, run.stderr).toBe(0);
    expect(written).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/^backup: 100% \(\d+ of \d+ pages\)$/m);
    expect(run.stdout).toContain(`backed up ${dbPath} to ${copy}`);
    expect(run.stdout).toContain(`keep ${join(tmp.dir, 'bankops.key')} with it`);
    expect(statSync(copy).mode & 0o777).toBe(0o600);

    // The copy is the database at one moment: intact, its chain whole, somewhere between the two heads.
    const copied = openDatabase(copy);
    try {
      expect(copied.pragma('integrity_check', { simple: true })).toBe('ok');
      const result = await new AuditLog(sqliteStorage(copied)).verify();
      expect(result.ok).toBe(true);
      expect(result.entries).toBeGreaterThanOrEqual(before);
      expect(result.entries).toBeLessThanOrEqual((await audit.head()).seq);
      expect(copied.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 2000 });
    } finally {
      copied.close();
    }
    // Nothing left behind but the copy itself (and SQLite's files of the copy just opened).
    expect(readdirSync(tmp.dir).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('leaves an existing file alone unless --force, and then replaces it', async () => {
    const existing = join(tmp.dir, 'existing.db');
    writeFileSync(existing, 'precious');
    const refused = await runCliHere(['db', 'backup', existing], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${existing} exists; --force replaces it`);
    expect(statSync(existing).size).toBe('precious'.length);

    const forced = await runCliHere(['db', 'backup', existing, '--force'], env);
    expect(forced.code, forced.stderr).toBe(0);
    const copied = openDatabase(existing);
    try {
      expect((await new AuditLog(sqliteStorage(copied)).verify()).ok).toBe(true);
    } finally {
      copied.close();
    }
    expect(statSync(existing).mode & 0o777).toBe(0o600);
  });

  it('says when there is no database, and what it takes', async () => {
    const missing = await runCliHere(['db', 'backup', join(tmp.dir, 'x.db')], {
      BANKOPS_DB: join(tmp.dir, 'none.db'),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no database at');
    expect(existsSync(join(tmp.dir, 'none.db'))).toBe(false);
    const usage = await runCliHere(['db', 'backup'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: bankops db backup <file> [--force]');
  });

  it('names a directory that does not exist, and leaves nothing behind', async () => {
    const run = await runCliHere(['db', 'backup', join(tmp.dir, 'no', 'such', 'x.db')], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`bankops: db backup: no directory ${join(tmp.dir, 'no', 'such')}`);
    expect(run.stderr).not.toContain('.partial');
  });

  it('points to pg_dump when the data is in PostgreSQL, and still backs up the SQLite file of a move', async () => {
    const pg = { BANKOPS_DATABASE_URL: 'postgres://ops@127.0.0.1:1/bank' };
    const moved = await runCliHere(['db', 'backup', join(tmp.dir, 'pg.db')], {
      ...pg,
      BANKOPS_DB: join(tmp.dir, 'gone.db'),
    });
    expect(moved.code).toBe(2);
    expect(moved.stderr).toContain(
      'keeps its data in PostgreSQL (BANKOPS_DATABASE_URL); back that up with pg_dump',
    );
    expect(existsSync(join(tmp.dir, 'pg.db'))).toBe(false);
    // Before the move (docs/deploy.md, step 1) the file is still there: it is backed up.
    const before = await runCliHere(['db', 'backup', join(tmp.dir, 'before-move.db')], { ...env, ...pg });
    expect(before.code).toBe(0);
    expect(existsSync(join(tmp.dir, 'before-move.db'))).toBe(true);
  });

  it('suggests the db command meant', async () => {
    const run = await runCliHere(['db', 'bakup', join(tmp.dir, 'y.db')], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown db command 'bakup'; did you mean backup?");
  });
});
