import type { KeyChecks } from '../key-checks.js';
import type { PgStore } from './pool.js';
import { statement } from './statement.js';

/** The key checks in PostgreSQL; the table is made by `migrate` (version 9). */
export function postgresKeyChecks(store: PgStore): KeyChecks {
  const recorded = async (name: string): Promise<string | undefined> =>
    (await statement<{ value: string }>(store, 'SELECT value FROM key_checks WHERE name = $1', [name]))
      .rows[0]?.value;
  return {
    claim: async (name, value) => {
      // Every process but the first finds it recorded: one read, and no write, at each start.
      const found = await recorded(name);
      if (found !== undefined) return found;
      await statement(
        store,
        'INSERT INTO key_checks (name, value, at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
        [name, value, Date.now()],
      );
      return (await recorded(name)) ?? value;
    },
    replace: async (name, value) => {
      // The value before, read in the statement that replaces it.
      const found = await statement<{ before: string | null }>(
        store,
        `WITH before AS (SELECT value FROM key_checks WHERE name = $1),
              written AS (
                INSERT INTO key_checks (name, value, at) VALUES ($1, $2, $3)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value, at = excluded.at
              )
         SELECT (SELECT value FROM before) AS before`,
        [name, value, Date.now()],
      );
      return found.rows[0]?.before ?? undefined;
    },
  };
}
