import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/core/store/postgres/migrate.js';
import { postgresOutbox } from '../../src/slack/store/postgres/outbox.js';
import { postgresAvailable, useTestDatabase } from '../helpers/postgres.js';
import { readUntil } from '../helpers/postgres-rows.js';

const available = await postgresAvailable();

const post = (text: string) => ({ method: 'chat.postMessage', args: { channel: 'C1', text } });

describe.skipIf(!available)('the PostgreSQL outbox between replicas', () => {
  const db = useTestDatabase();

  it('does not claim a head that another replica sent while the claim waited on its row', async () => {
    const [a, b] = [db.store({ applicationName: 'replica-a' }), db.store({ applicationName: 'replica-b' })];
    await migrate(a);
    const [one, two] = [postgresOutbox(a), postgresOutbox(b)];
    await one.add([post('x'), post('y')], 0);

    // Replica A marks the head sent in a transaction still open: its row is locked.
    const holder = await a.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('UPDATE slack_outbox SET done_at = 1 WHERE id = 1');
      const claiming = two.claimHead(0, 30_000);
      await readUntil(
        () =>
          b.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE application_name = 'replica-b' AND wait_event_type = 'Lock'`,
          ),
        (found) => found.rows[0]?.n === 1,
      );
      await holder.query('COMMIT');
      // The claim re-checks the row as A left it: sent, so not claimed (nor sent twice).
      expect(await claiming).toBeUndefined();
    } finally {
      holder.release();
    }
    expect(await two.claimHead(0, 30_000)).toMatchObject({ args: { text: 'y' } });
  });
});
