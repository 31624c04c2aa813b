import { beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/core/audit/index.js';
import { ThreadWriter } from '../../../src/core/audit/thread-writer.js';
import { migrate } from '../../../src/core/store/postgres/migrate.js';
import type { PgStore } from '../../../src/core/store/postgres/pool.js';
import { postgresStorage } from '../../../src/core/store/postgres/storage.js';
import { sampleEntry } from '../../helpers/audit.js';
import { postgresAvailable, useTestDatabase } from '../../helpers/postgres.js';

const available = await postgresAvailable();

/**
 * `AuditLog.close` promises to give up after its timeout: a durable batch whose WAL barrier does not
 * pass (here: another session holds `audit_flushes` locked, as a stalled disk or a cut network
 * would hold the barrier) must not hold the close until the server's statement timeout (15 s).
 */
describe.skipIf(!available)('closing the audit log while a WAL barrier hangs', () => {
  const db = useTestDatabase();
  let store: PgStore;
  let locker: PgStore;

  beforeAll(async () => {
    store = db.store();
    locker = db.store({ max: 1 });
    await migrate(store);
  });

  it('ends within its own timeout and the writer thread one, not at the server statement timeout', async () => {
    const log = new AuditLog(postgresStorage(store), {
      writer: new ThreadWriter({ kind: 'postgres', url: db.url(), applicationName: 'bankops-hung-barrier' }),
    });
    const holder = await locker.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE audit_flushes IN EXCLUSIVE MODE');
      const appended = log.append(sampleEntry(1)).then(
        () => 'on disk',
        () => 'refused',
      );
      // The batch is committed; its barrier now waits for the lock.
      for (;;) {
        const waiting = await store.pool.query(
          `SELECT 1 FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO audit_flushes%'`,
        );
        if (waiting.rowCount === 1) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const started = Date.now();
      const closed = await Promise.race([
        log.close(500).then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still closing after 8 s'), 8_000)),
      ]);
      expect(closed).toBe('closed');
      expect(Date.now() - started).toBeLessThan(8_000);
      // Not known to be on disk: the caller is not told it is.
      expect(await appended).toBe('refused');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  }, 30_000);
});
