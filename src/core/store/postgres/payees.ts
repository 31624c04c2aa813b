import type { Payee, PayeeDirectory } from '../../payees.js';
import { pgJson } from './json.js';
import type { PgStore } from './pool.js';
import { statement } from './statement.js';

const COLUMNS = ['name', 'entityType', 'country', 'currency', 'rail', 'accountMasked'] as const;

/** The payee directory in PostgreSQL (never the service's data beyond these fields); tables by `migrate`. */
export function postgresPayees(store: PgStore): PayeeDirectory {
  return {
    get: async (id) => {
      const found = await statement<{ record_json: unknown }>(
        store,
        'SELECT record_json FROM payees WHERE id = $1',
        [id],
      );
      const row = found.rows[0];
      return row === undefined ? undefined : { ...(pgJson.read(row.record_json) as Omit<Payee, 'id'>), id };
    },
    // Byte order (`COLLATE "C"`), as SQLite sorts: the database's collation may sort `_` or case apart.
    ids: async () =>
      (await statement<{ id: string }>(store, 'SELECT id FROM payees ORDER BY id COLLATE "C"')).rows.map(
        (row) => row.id,
      ),
    remember: async (payee) => {
      const record: Record<string, string> = {};
      for (const column of COLUMNS) {
        const value = payee[column];
        if (value !== undefined && value !== '') record[column] = value;
      }
      await statement(
        store,
        `INSERT INTO payees (id, record_json, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET record_json = excluded.record_json, updated_at = excluded.updated_at`,
        [payee.id, pgJson.write(record), new Date().toISOString()],
      );
    },
  };
}
