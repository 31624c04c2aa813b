import type { ServiceDeliveries } from '../deliveries.js';
import { type Db, underFileLock } from './database.js';
import { outboxInserter } from './outbox.js';

export function sqliteDeliveries(db: Db): ServiceDeliveries {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO service_deliveries (event_id, event_name, received_at) VALUES (?, ?, ?)',
  );
  const queue = outboxInserter(db);
  const accept = db.transaction(
    (eventId: string, eventName: string, calls: Parameters<typeof queue>[0]): boolean => {
      const now = Date.now();
      if (insert.run(eventId, eventName, now).changes !== 1) return false;
      queue(calls, now);
      return true;
    },
  );
  return {
    accept: (delivery, calls) =>
      underFileLock(db, () => accept.immediate(delivery.eventId, delivery.eventName, calls)),
  };
}
