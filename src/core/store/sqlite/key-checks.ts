import type { KeyChecks } from '../key-checks.js';
import { type Db, migrate } from './database.js';
import { underFileLock } from './file-lock.js';

/** The key checks in the SQLite file (`key-checks-1`). */
export function sqliteKeyChecks(db: Db): KeyChecks {
  migrate(db, 'key-checks-1', [
    `CREATE TABLE IF NOT EXISTS key_checks (
       name TEXT PRIMARY KEY,
       value TEXT NOT NULL,
       at INTEGER NOT NULL
     ) STRICT`,
  ]);
  const insert = db.prepare(
    'INSERT INTO key_checks (name, value, at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
  );
  const upsert = db.prepare(
    'INSERT INTO key_checks (name, value, at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, at = excluded.at',
  );
  const read = db.prepare('SELECT value FROM key_checks WHERE name = ?');
  const recorded = (name: string): string | undefined =>
    (read.get(name) as { value: string } | undefined)?.value;
  return {
    claim: async (name, value) =>
      // Every process but the first finds it recorded: one read, and no write, at each start.
      recorded(name) ??
      underFileLock(db, () => {
        insert.run(name, value, Date.now());
        return recorded(name) ?? value;
      }),
    replace: (name, value) =>
      underFileLock(db, () =>
        db.transaction(() => {
          const before = recorded(name);
          upsert.run(name, value, Date.now());
          return before;
        })(),
      ),
  };
}
