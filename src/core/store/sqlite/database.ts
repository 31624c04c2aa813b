import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { notConfigured } from '../../errors.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /**
   * `FULL` (default) fsyncs the WAL on every commit, so a committed row survives a power cut or
   * an OS crash, not only a crash of our process. The audit log and the approvals live in this
   * database, and an approval's `executing` state must be on disk BEFORE the service is called:
   * otherwise a power cut after a payout was sent could roll the approval back to `approved` and
   * erase the audit entry saying it was sent. `NORMAL` (enough for data that can be rebuilt, such
   * as the sandbox's state) survives process crashes but may lose the last commits on power loss.
   */
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * Opens (creating if needed) a SQLite database file for the core: WAL so readers never block the
 * one writer and several processes can share the file, `busy_timeout` so a second writer waits
 * instead of failing, foreign keys enforced. A new parent directory is created `0700` and a new
 * file `0600` (SQLite gives its `-wal` and `-shm` files the same mode): the audit log holds names
 * and e-mail addresses even with secrets redacted.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  if (file !== ':memory:') {
    const path = resolve(file);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(file);
  try {
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (file !== ':memory:' && mode !== 'wal') {
      throw notConfigured(`${file}: SQLite could not switch to WAL journal mode (got ${String(mode)})`);
    }
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The migrations each connection has seen applied: a name once applied stays applied. */
const seenApplied = new WeakMap<Db, Set<string>>();

/** The names in `schema_migrations`, read once a connection (none when the table is missing). */
function appliedOn(db: Db): Set<string> {
  let names = seenApplied.get(db);
  if (names === undefined) {
    const table = db.prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    );
    const rows =
      table.get() === undefined
        ? []
        : (db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]);
    names = new Set(rows.map((row) => row.name));
    seenApplied.set(db, names);
  }
  return names;
}

/**
 * Applies a named migration once: its statements and its row in `schema_migrations` commit
 * together or not at all. `BEGIN IMMEDIATE` serialises processes that start at the same moment,
 * so the second one sees the first one's row and skips. Returns whether it applied anything.
 * Names are global to the file: prefix them with the module (`audit/001-log`). A migration this
 * connection already knows applied costs no transaction: a command's start reads the names once.
 */
export function migrate(db: Db, name: string, statements: readonly string[]): boolean {
  const known = appliedOn(db);
  if (known.has(name)) return false;
  const apply = db.transaction((): boolean => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT',
    );
    if (db.prepare('SELECT 1 FROM schema_migrations WHERE name = ?').get(name) !== undefined) return false;
    for (const statement of statements) db.exec(statement);
    db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(
      name,
      new Date().toISOString(),
    );
    return true;
  });
  const applied = apply.immediate();
  known.add(name);
  return applied;
}
