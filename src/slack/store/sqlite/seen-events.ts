import type { SeenEventRows } from '../seen-events.js';
import { type Db, underFileLock } from './database.js';

export function sqliteSeenEvents(db: Db): SeenEventRows {
  const insert = db.prepare('INSERT OR IGNORE INTO slack_seen_events (event_id, seen_at) VALUES (?, ?)');
  const prune = db.prepare('DELETE FROM slack_seen_events WHERE seen_at < ?');
  return {
    record: (eventId, at) => underFileLock(db, () => insert.run(eventId, at).changes === 1),
    deleteBefore: async (time) => {
      await underFileLock(db, () => prune.run(time));
    },
  };
}
