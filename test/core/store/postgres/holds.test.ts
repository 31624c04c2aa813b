import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PgMoneyHoldStore } from '../../../../src/core/store/postgres/core/holds.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import { postgresStorage } from '../../../../src/core/store/postgres/storage.js';
import type { HoldCount, MoneyHold } from '../../../../src/core/totals/store.js';
import {
  type PlanNode,
  planNodes,
  postgresAvailable,
  reportedPlans,
  useTestDatabase,
} from '../../../helpers/postgres.js';

const available = await postgresAvailable();

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 20, 12);

/** The holds of running totals: sums per subject and start, each on that subject's index. */
describe.skipIf(!available)('running totals sums on PostgreSQL', () => {
  const db = useTestDatabase();

  beforeAll(async () => {
    const store = db.store();
    await migrate(store);
    const client = await store.pool.connect();
    try {
      await seed(client);
    } finally {
      client.release();
    }
  });

  async function seed(client: pg.ClientBase): Promise<void> {
    const holds = new PgMoneyHoldStore(client);
    let n = 0;
    const hold = (fields: Partial<MoneyHold> & { at: number; amount: number }): Promise<void> => {
      n += 1;
      return holds.insert({ id: `hold_${n}`, requester: 'ann', currency: 'USD', ...fields });
    };
    // ann's: two within the hour, one 5 h ago, one 30 h ago, one released, one in EUR.
    await hold({ at: NOW - 10 * 60_000, amount: 100, beneficiary: 'ben_a', sourceAccount: 'acc_1' });
    await hold({ at: NOW - 20 * 60_000, amount: 200, beneficiary: 'ben_b', sourceAccount: 'acc_1' });
    await hold({ at: NOW - 5 * HOUR, amount: 400, beneficiary: 'ben_a', sourceAccount: 'acc_2' });
    await hold({ at: NOW - 30 * HOUR, amount: 800, beneficiary: 'ben_a', sourceAccount: 'acc_1' });
    await hold({ at: NOW - 15 * 60_000, amount: 1_600, beneficiary: 'ben_a', sourceAccount: 'acc_1' });
    await holds.release(`hold_${n}`, NOW);
    await hold({
      at: NOW - 15 * 60_000,
      amount: 3_200,
      currency: 'EUR',
      beneficiary: 'ben_a',
      sourceAccount: 'acc_1',
    });
    // Someone else's, in the same window: counted for the company and the shared subjects only.
    await hold({
      at: NOW - 2 * HOUR,
      amount: 6_400,
      requester: 'bob',
      beneficiary: 'ben_a',
      sourceAccount: 'acc_2',
    });
    // A source account's long history, all before any window asked about below.
    await client.query(
      `INSERT INTO money_holds (id, at_ms, requester, beneficiary, source_account, currency, amount_minor)
       SELECT 'hold_old_' || i, $1::bigint - 100 * $2::bigint - i * 1000, 'p_old', 'b_old', 'a_old', 'USD', 1
         FROM generate_series(0, 19999) AS i`,
      [NOW, HOUR],
    );
    await hold({ at: NOW - 30 * 60_000, amount: 7, requester: 'p_old', sourceAccount: 'a_old' });
    // Others' history (417 of it in the last half hour), of the size that makes a plan filtering the whole window show.
    await client.query(
      `INSERT INTO money_holds (id, at_ms, requester, beneficiary, source_account, currency, amount_minor)
       SELECT 'hold_other_' || i, $1::bigint - (i % 48) * $2::bigint, 'p' || (i % 200), 'b' || (i % 500),
              'a' || (i % 20), 'USD', 1
         FROM generate_series(0, 19999) AS i`,
      [NOW, HOUR],
    );
  }

  it('sums each subject since each start, in one currency, without released rows', async () => {
    const client = await db.store().pool.connect();
    try {
      const holds = new PgMoneyHoldStore(client);
      await client.query('BEGIN');
      const sums = await holds.count({
        locks: ['requester:ann', 'beneficiary:ben_a'],
        queries: [
          {
            of: 'requester',
            subject: 'ann',
            currency: 'USD',
            since: [NOW - HOUR, NOW - 24 * HOUR, NOW - 48 * HOUR],
          },
          { of: 'beneficiary', subject: 'ben_a', currency: 'USD', since: [NOW - 24 * HOUR] },
          { of: 'sourceAccount', subject: 'acc_2', currency: 'USD', since: [NOW - 6 * HOUR] },
          { of: 'company', currency: 'USD', since: [NOW - 30 * 60_000] },
          { of: 'requester', subject: 'ann', currency: 'EUR', since: [NOW - HOUR] },
        ],
      });
      await client.query('COMMIT');
      expect(sums).toEqual([[300, 700, 1_500], [6_900], [6_800], [300 + 7 + 417], [3_200]]);
    } finally {
      client.release();
    }
  });

  /**
   * The index scans of the statements `money_holds_count` ran for each of `counts` (in one
   * transaction on one connection), as auto_explain reported them.
   */
  async function scansOf(counts: readonly HoldCount[]): Promise<PlanNode[][]> {
    const client = await db.store().pool.connect();
    try {
      return await reportedPlans(client, async (heard) => {
        const scans: PlanNode[][] = [];
        for (const count of counts) {
          heard.length = 0;
          await new PgMoneyHoldStore(client).count(count);
          scans.push(
            planNodes(heard).filter(
              (node) => node['Node Type'].includes('Index') || node['Node Type'] === 'Seq Scan',
            ),
          );
        }
        return scans;
      });
    } finally {
      client.release();
    }
  }

  it("scans only the subject's index range, even on a table never analyzed, from the first count on", async () => {
    const client = await db.store().pool.connect();
    try {
      const { rows } = await client.query<{ reltuples: number }>(
        "SELECT reltuples FROM pg_class WHERE relname = 'money_holds'",
      );
      // Nothing analyzed it (the test server runs without autovacuum; a fresh import may too).
      expect(rows[0]?.reltuples).toBe(-1);
    } finally {
      client.release();
    }
    const subjects = ['requester', 'beneficiary', 'sourceAccount'] as const;
    const count: HoldCount = {
      locks: [],
      queries: subjects.map((of) => ({ of, subject: 'x', currency: 'USD', since: [NOW - HOUR] })),
    };
    // Planned for the values at first, then once for all (a function's generic plan): both counted.
    const scans = await scansOf(Array.from({ length: 8 }, () => count));
    for (const found of scans) {
      expect(found.map((node) => node['Index Name'])).toEqual([
        'money_holds_requester',
        'money_holds_beneficiary',
        'money_holds_source_account',
      ]);
    }
  });

  it("starts each subject's scan at its window, not at its first row", async () => {
    const count: HoldCount = {
      locks: [],
      queries: [{ of: 'sourceAccount', subject: 'a_old', currency: 'USD', since: [NOW - HOUR] }],
    };
    const client = await db.store().pool.connect();
    try {
      expect(await new PgMoneyHoldStore(client).count(count)).toEqual([[7]]);
    } finally {
      client.release();
    }
    for (const found of await scansOf(Array.from({ length: 8 }, () => count))) {
      expect(found).toHaveLength(1);
      // 20,000 older rows of the account fill well over 50 index pages; the window's fit in a few.
      expect(found[0]?.['Shared Hit Blocks']).toBeLessThan(10);
    }
  });

  it('sums a subject with more starts than one scan takes, each in its place', async () => {
    const client = await db.store().pool.connect();
    try {
      const since = [1, 2, 3, 5, 24, 48].map((hours) => NOW - hours * HOUR);
      const sums = await new PgMoneyHoldStore(client).count({
        locks: ['requester:ann'],
        queries: [
          { of: 'requester', subject: 'ann', currency: 'USD', since },
          { of: 'beneficiary', subject: 'ben_b', currency: 'USD', since: [NOW - HOUR] },
          { of: 'company', currency: 'EUR', since: [] },
        ],
      });
      expect(sums).toEqual([[300, 300, 300, 700, 700, 1_500], [200], []]);
    } finally {
      client.release();
    }
  });

  it("counts in the round trip that begins the transaction, once the subjects' locks are granted", async () => {
    const store = db.store();
    const storage = postgresStorage(store);
    const count: HoldCount = {
      locks: ['requester:carl'],
      queries: [{ of: 'requester', subject: 'carl', currency: 'USD', since: [NOW - HOUR] }],
    };
    // Another admission holds carl's lock and has counted a hold it has not committed yet.
    const other = await store.pool.connect();
    const watcher = await store.pool.connect();
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    try {
      await other.query('BEGIN');
      expect(await new PgMoneyHoldStore(other).count(count)).toEqual([[0]]);
      await new PgMoneyHoldStore(other).insert({
        id: 'hold_carl',
        at: NOW - 60_000,
        requester: 'carl',
        currency: 'USD',
        amount: 900,
      });
      sent.mockClear();
      const counted = storage.transaction((tx) => tx.holds.count(count), { count });
      // The transaction waits for carl's lock (and for nothing else: the other holds no more).
      await vi.waitFor(
        async () => {
          const waiting = await watcher.query(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          expect(waiting.rowCount).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );
      await other.query('COMMIT');
      // It sees what the holder before it committed.
      expect(await counted).toEqual([[900]]);
      const texts = sent.mock.calls.map(([text]) => (typeof text === 'string' ? text : ''));
      const counting = texts.filter((text) => text.includes('money_holds'));
      expect(counting).toHaveLength(1);
      expect(counting[0]).toMatch(/^BEGIN/);
    } finally {
      sent.mockRestore();
      other.release();
      watcher.release();
    }
  });
});
