import { describe, expect, it } from 'vitest';
import { CodedError } from '../../../../src/core/errors.js';
import { connect, createPgPool, ping } from '../../../../src/core/store/postgres/pool.js';
import { statement } from '../../../../src/core/store/postgres/statement.js';
import { withTransaction } from '../../../../src/core/store/postgres/transaction.js';
import { describeDatabase, isPostgresUrl } from '../../../../src/core/store/postgres/url.js';
import { freePort } from '../../../helpers/ports.js';
import { asServerAdmin, postgresAvailable, useTestDatabase } from '../../../helpers/postgres.js';

/** A promise and the function that resolves it: steps two transactions in a chosen order. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('database URLs', () => {
  it('names a database as host:port/db, never with its password or options', () => {
    expect(describeDatabase('postgres://ops:s3cret@db.internal:6543/bank?sslmode=require')).toBe(
      'db.internal:6543/bank',
    );
    expect(describeDatabase('postgresql://ops@db.internal/bank')).toBe('db.internal:5432/bank');
    expect(isPostgresUrl('postgresql://x/y')).toBe(true);
    expect(isPostgresUrl('/var/lib/bankops/bankops.db')).toBe(false);
    expect(() => describeDatabase('mysql://x/y')).toThrow(/must start with postgres/);
  });

  it('names where node-postgres connects: host and port in the query win, a socket directory is a host', () => {
    expect(describeDatabase('postgres://ops@/bank?host=/var/run/postgresql')).toBe(
      '/var/run/postgresql:5432/bank',
    );
    expect(describeDatabase('postgres:///bank?host=/var/run/postgresql&port=5433')).toBe(
      '/var/run/postgresql:5433/bank',
    );
    expect(describeDatabase('postgres://ops@%2Fvar%2Frun%2Fpostgresql/bank')).toBe(
      '/var/run/postgresql:5432/bank',
    );
    expect(describeDatabase('postgres://ops:s3cret@db1/bank?host=db2&port=6432')).toBe('db2:6432/bank');
    expect(describeDatabase('postgres:///bank')).toBe('localhost:5432/bank');
    for (const unreadable of ['postgres://no host', 'postgres://ops@/bank'])
      expect(() => describeDatabase(unreadable)).toThrow(/cannot be read/);
  });

  it('says in one line that the database cannot be reached, naming it without the password', async () => {
    const port = await freePort();
    const store = createPgPool(`postgres://ops:s3cret@127.0.0.1:${port}/bank`);
    try {
      const retries: unknown[] = [];
      const failure = await withTransaction(store, async () => 1, {
        onRetry: (error) => retries.push(error),
      }).catch((error: unknown) => error);
      expect(retries).toEqual([]);
      expect(failure).toBeInstanceOf(CodedError);
      const coded = failure as CodedError;
      expect(coded.code).toBe('unavailable');
      expect(coded.message).toBe(
        `bankops cannot reach its database at 127.0.0.1:${port}/bank (connection refused)`,
      );
      expect(coded.message).not.toContain('s3cret');
      await expect(connect(store)).rejects.toThrow(/cannot reach its database/);
      expect(await ping(store)).toBe(false);
    } finally {
      await store.pool.end();
    }
  });
});

const available = await postgresAvailable();

describe.skipIf(!available)('PostgreSQL connections and transactions', () => {
  const db = useTestDatabase();

  it('names its sessions and cancels statements that run too long', async () => {
    const store = db.store({ applicationName: 'bankops-test', statementTimeoutMs: 200 });
    const seen = await store.pool.query<{ application_name: string; statement_timeout: string }>(
      "SELECT current_setting('application_name') AS application_name, current_setting('statement_timeout') AS statement_timeout",
    );
    expect(seen.rows[0]).toEqual({ application_name: 'bankops-test', statement_timeout: '200ms' });
    expect(await ping(store)).toBe(true);
    await store.pool.query('CREATE TABLE IF NOT EXISTS held (id int PRIMARY KEY)');
    await store.pool.query('INSERT INTO held VALUES (1) ON CONFLICT DO NOTHING');
    const holder = await db.store().pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM held WHERE id = 1 FOR UPDATE');
      await expect(store.pool.query('UPDATE held SET id = 1 WHERE id = 1')).rejects.toMatchObject({
        code: '57014',
      });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });

  it('says the database cannot be reached when every pooled connection is stuck and none frees in time', async () => {
    const store = db.store({ max: 1, connectionTimeoutMs: 100 });
    const stuck = await store.pool.connect();
    try {
      const failure = await statement(store, 'SELECT 1').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CodedError);
      expect((failure as CodedError).code).toBe('unavailable');
      expect((failure as CodedError).message).toBe(
        `bankops cannot reach its database at ${store.where} (timed out)`,
      );
    } finally {
      stuck.release();
    }
  });

  it('commits the work, or rolls all of it back when it throws', async () => {
    const store = db.store();
    await store.pool.query('CREATE TABLE kept (v text)');
    await withTransaction(store, (c) => c.query("INSERT INTO kept VALUES ('a')"));
    await expect(
      withTransaction(store, async (c) => {
        await c.query("INSERT INTO kept VALUES ('b')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await store.pool.query('SELECT v FROM kept')).rows).toEqual([{ v: 'a' }]);
    expect(typeof (await store.pool.query('SELECT 9007199254740991::bigint AS n')).rows[0].n).toBe('number');
  });

  it('runs a transaction again after a deadlock, and both finish', async () => {
    const store = db.store();
    await store.pool.query('CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL)');
    await store.pool.query('INSERT INTO pair VALUES (1, 0), (2, 0)');
    const first = gate();
    const second = gate();
    let attempts = 0;
    const crossing = (mine: number, theirs: number, locked: () => void, other: Promise<void>) =>
      withTransaction(store, async (c) => {
        attempts += 1;
        await c.query("SET LOCAL deadlock_timeout = '20ms'");
        await c.query('UPDATE pair SET n = n + 1 WHERE id = $1', [mine]);
        locked();
        await other;
        await c.query('UPDATE pair SET n = n + 1 WHERE id = $1', [theirs]);
      });
    await Promise.all([crossing(1, 2, first.open, second.opened), crossing(2, 1, second.open, first.opened)]);
    // One of the two is chosen to fail, and runs again (again, if it wins the race for the first row).
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect((await store.pool.query('SELECT n FROM pair ORDER BY id')).rows).toEqual([{ n: 2 }, { n: 2 }]);
  });

  it('runs a transaction again after a serialization failure', async () => {
    const store = db.store();
    await store.pool.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
    await store.pool.query('INSERT INTO counter VALUES (1, 0)');
    let attempts = 0;
    await withTransaction(
      store,
      async (c) => {
        attempts += 1;
        await c.query('SELECT n FROM counter WHERE id = 1');
        // Another session changes the row after this snapshot was taken: the first attempt must fail.
        if (attempts === 1) await store.pool.query('UPDATE counter SET n = n + 10 WHERE id = 1');
        await c.query('UPDATE counter SET n = n + 1 WHERE id = 1');
      },
      { isolation: 'repeatable read' },
    );
    expect(attempts).toBe(2);
    expect((await store.pool.query('SELECT n FROM counter')).rows).toEqual([{ n: 11 }]);
  });

  it('runs a transaction again on a new connection when its session is ended under it', async () => {
    const store = db.store();
    await store.pool.query('CREATE TABLE survivors (v text)');
    const retried: unknown[] = [];
    let attempts = 0;
    await withTransaction(
      store,
      async (c) => {
        attempts += 1;
        await c.query("INSERT INTO survivors VALUES ('x')");
        if (attempts === 1) {
          const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
          await asServerAdmin((admin) => admin.query('SELECT pg_terminate_backend($1)', [pid]));
        }
        await c.query('SELECT 1');
      },
      { onRetry: (error) => retried.push(error) },
    );
    expect(attempts).toBe(2);
    expect(retried).toHaveLength(1);
    expect((await store.pool.query('SELECT count(*)::int AS n FROM survivors')).rows).toEqual([{ n: 1 }]);
  });

  it('does not retry what running again cannot fix', async () => {
    const store = db.store();
    await store.pool.query('CREATE TABLE once (id int PRIMARY KEY)');
    await store.pool.query('INSERT INTO once VALUES (1)');
    let attempts = 0;
    const failure = withTransaction(store, async (c) => {
      attempts += 1;
      await c.query('INSERT INTO once VALUES (1)');
    });
    await expect(failure).rejects.toMatchObject({ code: '23505' });
    expect(attempts).toBe(1);
  });
});
