import type { SeenEventRows } from '../seen-events.js';
import { type PgStore, statement } from './database.js';

export function postgresSeenEvents(store: PgStore): SeenEventRows {
  return {
    // A second replica inserting the same id waits on the key until the first commits, then does nothing.
    record: async (eventId, at) =>
      (
        await statement(
          store,
          'INSERT INTO slack_seen_events (event_id, seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [eventId, at],
        )
      ).rowCount === 1,
    deleteBefore: async (time) => {
      await statement(store, 'DELETE FROM slack_seen_events WHERE seen_at < $1', [time]);
    },
  };
}
