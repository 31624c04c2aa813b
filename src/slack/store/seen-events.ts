/** Slack retries an event for about an hour at most; ids older than a day are forgotten. */
const KEEP_MS = 24 * 3600_000;

/** Where handled event ids are kept (SQL in `sqlite/seen-events.ts` and `postgres/seen-events.ts`). */
export interface SeenEventRows {
  /** Insert-if-absent: true when this caller recorded the id first (a unique key decides). */
  record(eventId: string, at: number): Promise<boolean>;
  deleteBefore(time: number): Promise<void>;
}

/**
 * Events API deliveries already handled, by event id. Slack re-sends an event it thinks was not
 * received (`X-Slack-Retry-Num`); the id is recorded before the event is processed, so a retry is
 * acknowledged and never processed a second time, in this process or another sharing the database.
 */
export class SeenEvents {
  readonly #rows: SeenEventRows;
  readonly #now: () => number;
  #lastPrune = 0;

  constructor(rows: SeenEventRows, now: () => number = Date.now) {
    this.#rows = rows;
    this.#now = now;
  }

  /** True the first time an id is offered, false for every repeat. */
  async firstTime(eventId: string): Promise<boolean> {
    const now = this.#now();
    if (now - this.#lastPrune > 3600_000) {
      this.#lastPrune = now;
      await this.#rows.deleteBefore(now - KEEP_MS);
    }
    return this.#rows.record(eventId, now);
  }
}
