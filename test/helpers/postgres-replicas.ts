import { migrate } from '../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../src/core/store/postgres/pool.js';
import type { TestDatabase } from './postgres.js';

/**
 * Two replicas on this file's database: two pools (each claim has one winner between them),
 * migrated on first use, and `emptyTables` (a constant `TRUNCATE …`) run before each pair is
 * handed out, so every test starts from empty tables as it does on a new SQLite file.
 */
export function pgReplicas(db: TestDatabase, emptyTables: string): () => Promise<[PgStore, PgStore]> {
  let pair: Promise<[PgStore, PgStore]> | undefined;
  return async () => {
    pair ??= (async () => {
      const stores: [PgStore, PgStore] = [
        db.store({ applicationName: 'replica-a' }),
        db.store({ applicationName: 'replica-b' }),
      ];
      await migrate(stores[0]);
      return stores;
    })();
    const stores = await pair;
    await stores[0].pool.query(emptyTables);
    return stores;
  };
}
