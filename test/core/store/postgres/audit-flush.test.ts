import { beforeAll, describe, expect, it } from 'vitest';
import { WalBarrier } from '../../../../src/core/store/postgres/audit-flush.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';

const available = await postgresAvailable();

/** A durable audit batch waits for this barrier: one that never passes holds its writer forever. */
describe.skipIf(!available)('the WAL barrier of durable audit commits', () => {
  const db = useTestDatabase();
  let store: PgStore;

  beforeAll(async () => {
    store = db.store();
    await migrate(store);
  });

  it('passes for a caller who arrives as the previous barrier ends', async () => {
    const barrier = new WalBarrier(store);
    // Asked from the first waiter's own continuation: the moment its run finds nobody else waiting.
    const second = barrier.after().then(() => barrier.after());
    const settled = await Promise.race([
      second.then(() => 'passed'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
    ]);
    expect(settled).toBe('passed');
  });

  it('serves everyone waiting when it starts with one flush, and the late ones with the next', async () => {
    const barrier = new WalBarrier(store);
    const before = await store.pool.query<{ flushes: number }>(
      'SELECT coalesce(sum(flushes), 0)::int AS flushes FROM audit_flushes',
    );
    await Promise.all(Array.from({ length: 20 }, () => barrier.after()));
    const after = await store.pool.query<{ flushes: number }>(
      'SELECT coalesce(sum(flushes), 0)::int AS flushes FROM audit_flushes',
    );
    const flushes = (after.rows[0]?.flushes ?? 0) - (before.rows[0]?.flushes ?? 0);
    expect(flushes).toBeGreaterThanOrEqual(1);
    expect(flushes).toBeLessThanOrEqual(2);
  });
});
