import { describe, expect, it } from 'vitest';
import { COPIED_TABLES, TARGET_ONLY_TABLES } from '../../src/core/store/postgres/copy-tables.js';
import { migrate } from '../../src/core/store/postgres/migrate.js';
import { openDatabase } from '../../src/core/store/sqlite/database.js';
import { knownMigrations, makeSqliteTables } from '../../src/core/store/sqlite/schema.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';

/**
 * `bankops db copy`'s table map against both schemas: a table or column added to either backend
 * without a place in src/core/store/postgres/copy-tables.ts fails here, not in a user's move.
 */

/** What only the SQLite file or only PostgreSQL keeps, and why it is not copied. */
const SQLITE_ONLY = ['schema_migrations', 'sqlite_sequence'];
const POSTGRES_ONLY = ['schema_version', ...TARGET_ONLY_TABLES];
/** PostgreSQL columns a copy leaves to their default: the writing transaction, the outbox lane. */
const DEFAULTED: Record<string, string[]> = { approval_events: ['xid'], slack_outbox: ['ordering_key'] };

function sqliteColumns(): Map<string, string[]> {
  const db = openDatabase(':memory:');
  try {
    makeSqliteTables(db);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    return new Map(
      tables
        .filter(({ name }) => !SQLITE_ONLY.includes(name))
        .map(({ name }) => [
          name,
          (db.pragma(`table_info(${name})`) as { name: string }[]).map((c) => c.name),
        ]),
    );
  } finally {
    db.close();
  }
}

const byName = (columns: readonly string[]): string[] => [...columns].sort();

describe('db copy tables against the SQLite schema', () => {
  it('copies every SQLite table, every column of each', () => {
    expect(knownMigrations().size).toBeGreaterThan(0);
    const sqlite = sqliteColumns();
    expect(byName([...sqlite.keys()])).toEqual(byName(COPIED_TABLES.map((t) => t.name)));
    for (const table of COPIED_TABLES)
      expect(byName(sqlite.get(table.name) ?? []), table.name).toEqual(byName(table.columns));
  });
});

const available = await postgresAvailable();

describe.skipIf(!available)('db copy tables against the PostgreSQL schema', () => {
  const database = useTestDatabase();

  it('fills every PostgreSQL table and column', async () => {
    const store = database.store();
    await migrate(store);
    const rows = await store.pool.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const pg = new Map<string, string[]>();
    for (const row of rows.rows) pg.set(row.table_name, [...(pg.get(row.table_name) ?? []), row.column_name]);
    const copied = [...pg.keys()].filter((name) => !POSTGRES_ONLY.includes(name));
    expect(byName(copied)).toEqual(byName(COPIED_TABLES.map((t) => t.name)));
    for (const table of COPIED_TABLES) {
      const filled = [...table.columns, ...Object.keys(table.fill ?? {}), ...(DEFAULTED[table.name] ?? [])];
      expect(byName(pg.get(table.name) ?? []), table.name).toEqual(byName(filled));
    }
  });
});
