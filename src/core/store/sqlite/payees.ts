import type { Payee, PayeeDirectory } from '../../payees.js';
import { type Db, migrate } from './database.js';
import { underFileLock } from './file-lock.js';
import { sqliteJson } from './json.js';

const COLUMNS = ['name', 'entityType', 'country', 'currency', 'rail', 'accountMasked'] as const;

/** The payee directory in the SQLite database (never the service's data beyond these fields). */
export function sqlitePayees(db: Db): PayeeDirectory {
  migrate(db, 'payees-1', [
    `CREATE TABLE payees (
       id TEXT PRIMARY KEY,
       record_json TEXT NOT NULL,
       updated_at TEXT NOT NULL
     ) STRICT`,
  ]);
  const read = db.prepare('SELECT record_json FROM payees WHERE id = ?');
  const all = db.prepare('SELECT id FROM payees ORDER BY id');
  const write = db.prepare(
    `INSERT INTO payees (id, record_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET record_json = excluded.record_json, updated_at = excluded.updated_at`,
  );
  return {
    get: async (id) => {
      const row = read.get(id) as { record_json: string } | undefined;
      return row === undefined
        ? undefined
        : { ...(sqliteJson.read(row.record_json) as Omit<Payee, 'id'>), id };
    },
    ids: async () => (all.all() as { id: string }[]).map((row) => row.id),
    remember: async (payee) => {
      const record: Record<string, string> = {};
      for (const column of COLUMNS) {
        const value = payee[column];
        if (value !== undefined && value !== '') record[column] = value;
      }
      await underFileLock(db, () => write.run(payee.id, sqliteJson.write(record), new Date().toISOString()));
    },
  };
}
