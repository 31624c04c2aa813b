import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appendFeedEvent,
  FEED_START,
  type FeedEvent,
  type FeedPosition,
  feedHead,
  readFeed,
} from '../../../../src/core/store/postgres/feed.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { withTransaction } from '../../../../src/core/store/postgres/transaction.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';
import { feedEvent, insertApproval, readUntil } from '../../../helpers/postgres-rows.js';

const available = await postgresAvailable();

/** A session in an open transaction, for interleaving by hand. */
async function openTransaction(store: PgStore): Promise<pg.PoolClient> {
  const client = await store.pool.connect();
  await client.query('BEGIN');
  return client;
}

async function finish(client: pg.PoolClient, how: 'COMMIT' | 'ROLLBACK' = 'COMMIT'): Promise<void> {
  await client.query(how);
  client.release();
}

/** A reader that keeps its cursor, as a consumer does. */
function reader(store: PgStore) {
  let cursor: FeedPosition = FEED_START;
  const seen: number[] = [];
  return {
    seen,
    async read(): Promise<number[]> {
      const events = await readFeed(store.pool, cursor, 1000);
      cursor = events.at(-1)?.position ?? cursor;
      seen.push(...events.map((e) => e.seq));
      return events.map((e) => e.seq);
    },
  };
}

/**
 * A reader that has read every event committed so far, and forgot them. An event is passed on once
 * no transaction older than it is open anywhere on the server (another test file's database
 * included): the tests before may have left some not yet passed.
 */
async function caughtUp(store: PgStore) {
  const r = reader(store);
  const before = await store.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM approval_events');
  await readUntil(r.read, () => r.seen.length >= (before.rows[0]?.n ?? 0));
  r.seen.length = 0;
  return r;
}

describe.skipIf(!available)('the change feed on PostgreSQL', () => {
  const db = useTestDatabase();
  let store: PgStore;

  beforeAll(async () => {
    store = db.store({ max: 6 });
    await migrate(store);
    await insertApproval(store.pool, 'ap-1');
    await insertApproval(store.pool, 'ap-2');
  });

  it('does not pass an event whose transaction is still open (A has seq 1 open, B commits seq 2)', async () => {
    const start = await feedHead(store.pool);
    const a = await openTransaction(store);
    const one = await appendFeedEvent(a, feedEvent('ap-1', 'A'));
    const b = await openTransaction(store);
    const two = await appendFeedEvent(b, feedEvent('ap-2', 'B'));
    expect(two.seq).toBeGreaterThan(one.seq);
    await finish(b);
    // B committed, but A (with the lower number) may still commit: the reader must wait for it.
    expect(await readFeed(store.pool, start)).toEqual([]);
    await finish(a);
    const both = await readUntil(
      () => readFeed(store.pool, start),
      (events) => events.length === 2,
    );
    expect(both.map((e) => e.seq)).toEqual([one.seq, two.seq]);
  });

  it('never skips a lower number that commits after a higher one was read', async () => {
    // B starts writing first (its transaction id is older) but takes the higher sequence number.
    const r = await caughtUp(store);
    const b = await openTransaction(store);
    await b.query("UPDATE approvals SET updated_at = 'b' WHERE id = 'ap-2'");
    const a = await openTransaction(store);
    const one = await appendFeedEvent(a, feedEvent('ap-1', 'A'));
    const two = await appendFeedEvent(b, feedEvent('ap-2', 'B'));
    expect(two.seq).toBeGreaterThan(one.seq);
    await finish(b);
    expect(await readUntil(r.read, (seqs) => seqs.length > 0)).toEqual([two.seq]);
    await finish(a);
    expect(await readUntil(r.read, (seqs) => seqs.length > 0)).toEqual([one.seq]);
    expect(await r.read()).toEqual([]);
  });

  it('loses nothing to a rolled-back transaction, and reads nothing of it', async () => {
    const r = await caughtUp(store);
    const a = await openTransaction(store);
    await appendFeedEvent(a, feedEvent('ap-1', 'rolled back'));
    const b = await openTransaction(store);
    const kept = await appendFeedEvent(b, feedEvent('ap-2', 'kept'));
    await finish(b);
    expect(await r.read()).toEqual([]);
    await finish(a, 'ROLLBACK');
    expect(await readUntil(r.read, (seqs) => seqs.length > 0)).toEqual([kept.seq]);
  });

  it('gives a reader every event exactly once while many writers commit in any order', async () => {
    const r = await caughtUp(store);
    const written: number[] = [];
    let writing = true;
    const readers = (async () => {
      while (writing) {
        await r.read();
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(
      Array.from({ length: 4 }, (_, w) =>
        (async () => {
          for (let i = 0; i < 25; i += 1) {
            const events: FeedEvent[] = await withTransaction(store, async (c) => {
              const mine: FeedEvent[] = [];
              // Some transactions write before taking their number, so ids and numbers disagree.
              if ((i + w) % 3 === 0) await c.query("UPDATE approvals SET updated_at = 'x' WHERE id = 'ap-1'");
              mine.push(await appendFeedEvent(c, feedEvent(w % 2 === 0 ? 'ap-1' : 'ap-2', `${w}/${i}`)));
              await new Promise((resolve) => setImmediate(resolve));
              mine.push(await appendFeedEvent(c, feedEvent('ap-2', `${w}/${i}b`)));
              return mine;
            });
            written.push(...events.map((e) => e.seq));
          }
        })(),
      ),
    );
    writing = false;
    await readers;
    await readUntil(r.read, () => r.seen.length >= written.length);
    expect(new Set(r.seen).size).toBe(r.seen.length);
    expect([...r.seen].sort((x, y) => x - y)).toEqual([...written].sort((x, y) => x - y));
  });
});
