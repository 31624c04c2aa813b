import type { ServiceDeliveries } from '../deliveries.js';
import { type PgStore, withTransaction } from './database.js';
import { queueCalls } from './outbox.js';

export function postgresDeliveries(store: PgStore): ServiceDeliveries {
  return {
    // A repeat from another replica waits on the key until the first commits, then inserts nothing.
    accept: async (delivery, calls) =>
      withTransaction(store, async (client) => {
        const now = Date.now();
        const inserted = await client.query(
          `INSERT INTO service_deliveries (event_id, event_name, received_at) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING`,
          [delivery.eventId, delivery.eventName, now],
        );
        if (inserted.rowCount !== 1) return false;
        await queueCalls(client, calls, now);
        return true;
      }),
  };
}
