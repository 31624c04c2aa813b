import { type OutboxCall, type OutboxRows, outboxRowOf, type StoredOutboxRow } from '../outbox-rows.js';
import { type Db, sqliteJson, underFileLock } from './database.js';

/**
 * Queues calls on `db` without a transaction of its own: the caller's transaction (the outbox alone,
 * a delivery and its messages, an approval's rendered digest and its edits) commits them.
 */
export function outboxInserter(db: Db): (calls: readonly OutboxCall[], now: number) => number {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO slack_outbox (dedupe_key, method, args_json, created_at, next_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  return (calls, now) => {
    let queued = 0;
    for (const call of calls) {
      queued += insert.run(
        call.dedupeKey ?? null,
        call.method,
        sqliteJson.write(call.args),
        now,
        now,
      ).changes;
    }
    return queued;
  };
}

export function sqliteOutbox(db: Db): OutboxRows {
  const add = db.transaction(outboxInserter(db));
  // One statement: the head is chosen and leased atomically, so two replicas never both win it.
  const claim = db.prepare(
    `UPDATE slack_outbox SET lease_until = ?
     WHERE id = (SELECT id FROM slack_outbox WHERE done_at IS NULL ORDER BY id LIMIT 1)
       AND next_at <= ? AND lease_until <= ?
     RETURNING id, method, args_json, attempts`,
  );
  const sent = db.prepare('UPDATE slack_outbox SET done_at = ?, error = NULL WHERE id = ?');
  const dropped = db.prepare('UPDATE slack_outbox SET done_at = ?, attempts = ?, error = ? WHERE id = ?');
  const retry = db.prepare(
    'UPDATE slack_outbox SET attempts = ?, next_at = ?, lease_until = 0, error = ? WHERE id = ?',
  );
  const pending = db.prepare('SELECT count(*) AS n FROM slack_outbox WHERE done_at IS NULL');
  return {
    add: (calls, now) => underFileLock(db, () => add.immediate(calls, now)),
    claimHead: async (now, leaseUntil) => {
      const row = await underFileLock(
        db,
        () => claim.get(leaseUntil, now, now) as StoredOutboxRow | undefined,
      );
      return row === undefined ? undefined : outboxRowOf(row, sqliteJson.read);
    },
    sent: async (id, now) => {
      await underFileLock(db, () => sent.run(now, id));
    },
    dropped: async (id, now, attempts, error) => {
      await underFileLock(db, () => dropped.run(now, attempts, error, id));
    },
    retryAt: async (id, attempts, nextAt, error) => {
      await underFileLock(db, () => retry.run(attempts, nextAt, error, id));
    },
    pending: async () => (pending.get() as { n: number }).n,
  };
}
