import { beforeAll, describe, expect, it } from 'vitest';
import {
  claimLease,
  expiredLeases,
  type LeaseClaim,
  releaseLease,
  renewLease,
} from '../../../../src/core/store/postgres/leases.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { withTransaction } from '../../../../src/core/store/postgres/transaction.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';
import { insertApproval } from '../../../helpers/postgres-rows.js';

const available = await postgresAvailable();

describe.skipIf(!available)('execution leases on PostgreSQL', () => {
  const db = useTestDatabase();
  let store: PgStore;
  const claim = (on: PgStore, id: string, owner: string, leaseMs?: number): Promise<LeaseClaim> =>
    withTransaction(on, (c) => claimLease(c, id, owner, leaseMs));
  /** The holder's lease ran out (it died 31 s ago, say). */
  const expire = (id: string) =>
    store.pool.query(
      "UPDATE approvals SET lease_until = clock_timestamp() - interval '1 second' WHERE id = $1",
      [id],
    );

  beforeAll(async () => {
    store = db.store({ max: 8 });
    await migrate(store);
  });

  it('gives an execution to exactly one of many replicas claiming it at once', async () => {
    await insertApproval(store.pool, 'race', 'executing');
    const replicas = Array.from({ length: 4 }, (_, r) =>
      db.store({ applicationName: `replica-${r}`, max: 2 }),
    );
    const claims = await Promise.all(
      replicas.flatMap((replica, r) => [0, 1].map((k) => claim(replica, 'race', `replica-${r}:${k}`))),
    );
    const winners = claims.filter((c) => c.claimed);
    expect(winners).toHaveLength(1);
    const holders = new Set(claims.flatMap((c) => (c.claimed ? [] : [c.holder])));
    expect(holders.size).toBe(1);
    const until = (winners[0] as { until: Date }).until.getTime();
    const now =
      (await store.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]?.now.getTime() ?? 0;
    expect(until - now).toBeGreaterThan(25_000);
    expect(until - now).toBeLessThanOrEqual(30_000);
  });

  it('renews only for its holder, and lets another replica take over a lease that ran out', async () => {
    await insertApproval(store.pool, 'takeover', 'executing');
    expect(await claim(store, 'takeover', 'replica-a')).toMatchObject({ claimed: true });
    expect(await claim(store, 'takeover', 'replica-a')).toEqual({ claimed: true, until: expect.any(Date) });
    expect(await renewLease(store.pool, 'takeover', 'replica-a')).toBeInstanceOf(Date);
    expect(await renewLease(store.pool, 'takeover', 'replica-b')).toBeUndefined();
    expect(await claim(store, 'takeover', 'replica-b')).toMatchObject({
      claimed: false,
      holder: 'replica-a',
    });
    expect(await expiredLeases(store.pool)).not.toContain('takeover');

    await expire('takeover');
    expect(await expiredLeases(store.pool)).toContain('takeover');
    expect(await claim(store, 'takeover', 'replica-b')).toMatchObject({
      claimed: true,
      takenOverFrom: 'replica-a',
    });
    // The old holder, back from a long pause, learns it lost the lease and must not send again.
    expect(await renewLease(store.pool, 'takeover', 'replica-a')).toBeUndefined();
    expect(await releaseLease(store.pool, 'takeover', 'replica-a')).toBe(false);
    expect(await releaseLease(store.pool, 'takeover', 'replica-b')).toBe(true);
    expect(await expiredLeases(store.pool)).toContain('takeover');
  });

  it('takes over an expired lease once when several replicas find it together', async () => {
    await insertApproval(store.pool, 'orphan', 'executing');
    expect(await claim(store, 'orphan', 'dead-replica')).toMatchObject({ claimed: true });
    await expire('orphan');
    const replicas = Array.from({ length: 3 }, (_, r) =>
      db.store({ applicationName: `survivor-${r}`, max: 2 }),
    );
    const claims = await Promise.all(replicas.map((replica, r) => claim(replica, 'orphan', `survivor-${r}`)));
    expect(claims.filter((c) => c.claimed)).toEqual([
      { claimed: true, until: expect.any(Date), takenOverFrom: 'dead-replica' },
    ]);
  });

  it('says when there is no such approval', async () => {
    expect(await claim(store, 'nope', 'replica-a')).toEqual({
      claimed: false,
      holder: undefined,
      missing: true,
    });
  });
});
