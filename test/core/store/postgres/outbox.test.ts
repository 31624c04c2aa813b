import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import {
  claimOutbox,
  enqueueOutbox,
  finishOutbox,
  pendingOutbox,
  retryOutbox,
} from '../../../../src/core/store/postgres/outbox.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';

const available = await postgresAvailable();

describe.skipIf(!available)('the Slack outbox on PostgreSQL', () => {
  const db = useTestDatabase();
  let store: PgStore;

  beforeAll(async () => {
    store = db.store({ max: 4 });
    await migrate(store);
  });
  beforeEach(async () => {
    await store.pool.query('DELETE FROM slack_outbox');
  });

  it('sends each message once across replicas, one at a time and in order per key', async () => {
    const keys = ['approval:a', 'approval:b', 'approval:c', 'approval:d'];
    for (let i = 0; i < 8; i += 1) {
      for (const key of keys) {
        await enqueueOutbox(store.pool, {
          method: i === 0 ? 'chat.postMessage' : 'chat.update',
          args: { i },
          orderingKey: key,
        });
      }
    }
    const sent = new Map<string, number[]>(keys.map((key) => [key, []]));
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    const replicas = Array.from({ length: 3 }, (_, r) =>
      db.store({ applicationName: `replica-${r}`, max: 2 }),
    );
    await Promise.all(
      replicas.map(async (replica) => {
        while ((await pendingOutbox(replica.pool)) > 0) {
          const claims = await claimOutbox(replica, { limit: 3 });
          await Promise.all(
            claims.map(async (claim) => {
              if (inFlight.has(claim.orderingKey)) overlaps.push(claim.orderingKey);
              inFlight.add(claim.orderingKey);
              sent.get(claim.orderingKey)?.push(claim.args.i as number);
              await new Promise((resolve) => setImmediate(resolve)); // the call to Slack
              inFlight.delete(claim.orderingKey);
              await finishOutbox(replica.pool, claim.id);
            }),
          );
        }
      }),
    );
    expect(overlaps).toEqual([]);
    for (const order of sent.values()) expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('holds a key back while its head waits for a retry, and lets other keys go', async () => {
    await enqueueOutbox(store.pool, { method: 'chat.postMessage', args: { n: 1 }, orderingKey: 'k1' }, 1_000);
    await enqueueOutbox(store.pool, { method: 'chat.update', args: { n: 2 }, orderingKey: 'k1' }, 1_000);
    await enqueueOutbox(store.pool, { method: 'chat.postMessage', args: { n: 3 }, orderingKey: 'k2' }, 1_000);
    const first = await claimOutbox(store, { nowMs: 2_000 });
    expect(first.map((c) => c.args.n)).toEqual([1, 3]);
    await retryOutbox(store.pool, first[0]?.id ?? 0, 10_000, 'ratelimited');
    await finishOutbox(store.pool, first[1]?.id ?? 0);
    expect(await claimOutbox(store, { nowMs: 5_000 })).toEqual([]);
    const again = await claimOutbox(store, { nowMs: 10_000 });
    expect(again).toMatchObject([{ args: { n: 1 }, attempts: 2 }]);
  });

  it('sends again what a replica claimed and never finished, once its lease ran out', async () => {
    await enqueueOutbox(store.pool, { method: 'chat.postMessage', args: { n: 1 } });
    const [claimed] = await claimOutbox(store);
    expect(claimed).toMatchObject({ attempts: 1, orderingKey: '' });
    expect(await claimOutbox(store)).toEqual([]);
    await store.pool.query("UPDATE slack_outbox SET lease_until = clock_timestamp() - interval '1 second'");
    expect(await claimOutbox(store)).toMatchObject([{ id: claimed?.id, attempts: 2 }]);
  });

  it('queues a message with a dedupe key once', async () => {
    const message = { method: 'chat.postMessage', args: {}, dedupeKey: 'digest:2026-01-01' };
    expect(await enqueueOutbox(store.pool, message)).toBe(true);
    expect(await enqueueOutbox(store.pool, message)).toBe(false);
    expect(await pendingOutbox(store.pool)).toBe(1);
  });
});
