import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { PgMoneyHoldStore } from '../../../../src/core/store/postgres/core/holds.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import type { MoneyHold } from '../../../../src/core/totals/store.js';
import { postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';

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
      const sums = await holds.count(
        ['requester:ann', 'beneficiary:ben_a'],
        [
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
      );
      await client.query('COMMIT');
      expect(sums).toEqual([[300, 700, 1_500], [6_900], [6_800], [300 + 417], [3_200]]);
    } finally {
      client.release();
    }
  });

  it("scans only the subject's index range, even on a table never analyzed", async () => {
    const store = db.store();
    const client = await store.pool.connect();
    try {
      const { rows } = await client.query<{ reltuples: number }>(
        "SELECT reltuples FROM pg_class WHERE relname = 'money_holds'",
      );
      // Nothing analyzed it (the test server runs without autovacuum; a fresh import may too).
      expect(rows[0]?.reltuples).toBe(-1);
      // The statement the store sends, explained as it was sent.
      const sent: string[] = [];
      const spy = {
        escapeLiteral: (value: string) => client.escapeLiteral(value),
        query: (text: string) => {
          sent.push(text);
          return client.query(text);
        },
      } as unknown as pg.ClientBase;
      await new PgMoneyHoldStore(spy).count(
        [],
        (['requester', 'beneficiary', 'sourceAccount'] as const).map((of) => ({
          of,
          subject: 'x',
          currency: 'USD',
          since: [NOW - HOUR],
        })),
      );
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sent.at(-1)}`)).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      for (const index of ['money_holds_requester', 'money_holds_beneficiary', 'money_holds_source_account'])
        expect(plan).toContain(`using ${index} on money_holds`);
      expect(plan).not.toContain('money_holds_company');
    } finally {
      client.release();
    }
  });
});
