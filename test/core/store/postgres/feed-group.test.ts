import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFeedEvent, type FeedEvent, readFeed } from '../../../../src/core/store/postgres/feed.js';
import { consumeGroup, ensureGroup, groupPosition } from '../../../../src/core/store/postgres/feed-group.js';
import { FeedListener } from '../../../../src/core/store/postgres/feed-listener.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../../src/core/store/postgres/pool.js';
import { withTransaction } from '../../../../src/core/store/postgres/transaction.js';
import { asServerAdmin, postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';
import { feedEvent, insertApproval, readUntil } from '../../../helpers/postgres-rows.js';

const available = await postgresAvailable();

async function appendEvents(store: PgStore, n: number, approvalId = 'ap-1'): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for (let i = 0; i < n; i += 1) {
    events.push(await withTransaction(store, (c) => appendFeedEvent(c, feedEvent(approvalId, `e${i}`))));
  }
  return events;
}

/** What a handler did, in the handler's own transaction (as a Slack poster queues its message). */
const recordHandled = (replica: string) => async (c: import('pg').PoolClient, event: FeedEvent) => {
  await c.query("INSERT INTO handled (grp, seq, replica) VALUES ('g1', $1, $2)", [event.seq, replica]);
};

describe.skipIf(!available)('consumer groups and wake-ups on PostgreSQL', () => {
  const db = useTestDatabase();
  let store: PgStore;

  beforeAll(async () => {
    store = db.store({ max: 8 });
    await migrate(store);
    await insertApproval(store.pool, 'ap-1');
    await store.pool.query(
      'CREATE TABLE handled (grp text, seq bigint, replica text, PRIMARY KEY (grp, seq))',
    );
  });

  it('hands each event to one replica of a group, and every group sees every event', async () => {
    const replicas = [db.store({ applicationName: 'replica-a' }), db.store({ applicationName: 'replica-b' })];
    await ensureGroup(store.pool, 'slack-poster', 'now');
    await ensureGroup(store.pool, 'auditor', 'now');
    const written = await appendEvents(store, 60);
    const byGroup = new Map<string, { seq: number; replica: number }[]>([
      ['slack-poster', []],
      ['auditor', []],
    ]);
    await Promise.all(
      replicas.flatMap((replica, r) =>
        [...byGroup.keys()].map(async (group) => {
          for (;;) {
            const turn = await consumeGroup(
              replica,
              group,
              async (_c, event) => {
                byGroup.get(group)?.push({ seq: event.seq, replica: r });
              },
              { limit: 7 },
            );
            const done = byGroup.get(group)?.length === written.length;
            if (turn.held && turn.handled === 0 && done) return;
          }
        }),
      ),
    );
    for (const handled of byGroup.values()) {
      expect(handled.map((h) => h.seq)).toEqual(written.map((e) => e.seq));
    }
    expect((await groupPosition(store.pool, 'auditor'))?.seq).toBe(written.at(-1)?.seq);
  });

  it('lets another replica take over a group from one that died mid-turn, handling each event once', async () => {
    await ensureGroup(store.pool, 'g1-poster', 'now');
    const from = await groupPosition(store.pool, 'g1-poster');
    const [event] = await appendEvents(store, 1);
    if (from === undefined) throw new Error('no cursor');
    // Once readable, an event stays readable: the horizon only moves forward.
    await readUntil(
      () => readFeed(store.pool, from),
      (events) => events.length === 1,
    );
    const dying = db.store({ applicationName: 'dying-replica' });
    const survivor = db.store({ applicationName: 'survivor' });
    let inHandler: () => void = () => undefined;
    const handlerEntered = new Promise<void>((resolve) => {
      inHandler = resolve;
    });
    let pid = 0;
    const dyingTurn = consumeGroup(
      dying,
      'g1-poster',
      async (c, e) => {
        await recordHandled('dying')(c, e);
        pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
        inHandler();
        await c.query('SELECT pg_sleep(60)'); // a replica stuck mid-turn until it is killed
      },
      { transaction: { attempts: 1 } },
    ).catch((error: unknown) => error);
    await handlerEntered;
    // While it holds the group, another replica does nothing.
    expect(await consumeGroup(survivor, 'g1-poster', recordHandled('survivor'))).toEqual({
      held: false,
      handled: 0,
    });
    await asServerAdmin((admin) => admin.query('SELECT pg_terminate_backend($1)', [pid]));
    expect(await dyingTurn).toBeInstanceOf(Error);
    expect(await consumeGroup(survivor, 'g1-poster', recordHandled('survivor'))).toEqual({
      held: true,
      handled: 1,
    });
    const handled = await store.pool.query('SELECT seq, replica FROM handled WHERE grp = $1', ['g1']);
    expect(handled.rows).toEqual([{ seq: event?.seq, replica: 'survivor' }]);
  });

  describe('wake-ups', () => {
    const wakes: (() => void)[] = [];
    const connections: (() => void)[] = [];
    const next = (list: (() => void)[]) => new Promise<void>((resolve) => list.push(resolve));
    let listener: FeedListener;

    beforeAll(async () => {
      listener = new FeedListener({
        url: db.url(),
        pollMs: 600_000,
        onWake: () => {
          for (const wake of wakes.splice(0)) wake();
        },
        onListening: () => {
          for (const up of connections.splice(0)) up();
        },
      });
      await listener.start();
    });
    afterAll(() => listener.close());

    it('wakes readers when an event commits', async () => {
      const woken = next(wakes);
      await appendEvents(store, 1);
      await woken;
      expect(wakes).toEqual([]);
    });

    it('wakes readers by its poll when no notification comes', async () => {
      let polls = 0;
      let enough: () => void = () => undefined;
      const polled = new Promise<void>((resolve) => {
        enough = resolve;
      });
      const quiet = new FeedListener({
        url: db.url(),
        channel: 'bankops_nobody_notifies',
        pollMs: 5,
        onWake: () => {
          polls += 1;
          if (polls === 3) enough();
        },
      });
      await quiet.start();
      await polled;
      await quiet.close();
      expect(polls).toBeGreaterThanOrEqual(3);
    });

    it('listens again after its connection is ended, and wakes readers in case it missed something', async () => {
      const reconnected = next(connections);
      const pid = await listener.backendPid();
      expect(pid).toBeGreaterThan(0);
      await asServerAdmin((admin) => admin.query('SELECT pg_terminate_backend($1)', [pid]));
      await reconnected;
      expect(await listener.backendPid()).not.toBe(pid);
      const woken = next(wakes);
      await appendEvents(store, 1);
      await woken;
    });
  });
});
