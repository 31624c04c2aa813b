import type { Db } from './database.js';

/** Slack retries an event for about an hour at most; ids older than a day are forgotten. */
const KEEP_MS = 24 * 3600_000;

/**
 * Events API deliveries already handled, by event id. Slack re-sends an event it thinks was not
 * received (`X-Slack-Retry-Num`); the id is recorded before the event is processed, so a retry is
 * acknowledged and never processed a second time, in this process or another sharing the database.
 */
export class SeenEvents {
  readonly #insert;
  readonly #prune;
  readonly #now: () => number;
  #lastPrune = 0;

  constructor(db: Db, now: () => number = Date.now) {
    this.#insert = db.prepare('INSERT OR IGNORE INTO slack_seen_events (event_id, seen_at) VALUES (?, ?)');
    this.#prune = db.prepare('DELETE FROM slack_seen_events WHERE seen_at < ?');
    this.#now = now;
  }

  /** True the first time an id is offered, false for every repeat. */
  firstTime(eventId: string): boolean {
    const now = this.#now();
    if (now - this.#lastPrune > 3600_000) {
      this.#lastPrune = now;
      this.#prune.run(now - KEEP_MS);
    }
    return this.#insert.run(eventId, now).changes === 1;
  }
}
