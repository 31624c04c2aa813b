import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WalBarrier } from '../../../../src/core/store/postgres/audit-flush.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import { createPgPool, type PgStore } from '../../../../src/core/store/postgres/pool.js';
import { postgresAvailable, TEST_SERVER_URL, useTestDatabase } from '../../../helpers/postgres.js';
import { TcpGate } from '../../../helpers/tcp-gate.js';

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

  describe('when the database cannot be reached', () => {
    let gate: TcpGate;
    let through: PgStore;

    beforeAll(async () => {
      const server = new URL(TEST_SERVER_URL);
      gate = await TcpGate.open({ host: server.hostname, port: Number(server.port || 5432) });
      const url = new URL(db.url());
      url.port = String(gate.port);
      through = createPgPool(url.toString(), { max: 2, connectionTimeoutMs: 2_000 });
    });
    afterAll(async () => {
      await through?.pool.end();
      await gate?.shut();
    });

    const within5s = <T>(work: Promise<T>) =>
      Promise.race([
        work.then(
          () => 'passed',
          (error: unknown) => `failed: ${String(error)}`,
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
      ]);

    it('fails its waiters, those who arrive during the failing barrier and after it too, then passes again', async () => {
      const barrier = new WalBarrier(through);
      await gate.shut();
      const first = barrier.after();
      const during = barrier.after();
      // Asked from the last failed waiter's own continuation: the moment its run finds nobody waiting.
      const afterFailure = during.catch(() => barrier.after());
      expect(await within5s(first)).toMatch(/^failed: .*cannot reach its database/);
      expect(await within5s(during)).toMatch(/^failed: .*cannot reach its database/);
      expect(await within5s(afterFailure)).toMatch(/^failed: .*cannot reach its database/);
      await gate.open();
      expect(await within5s(barrier.after())).toBe('passed');
    });
  });
});
