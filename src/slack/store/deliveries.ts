import type { Db } from './database.js';

/**
 * Service deliveries already received, by event id and name: a repeat (the service retries after a
 * timeout) is answered 200 and posts nothing new.
 */
export class ServiceDeliveries {
  readonly #insert;

  constructor(db: Db) {
    this.#insert = db.prepare(
      'INSERT OR IGNORE INTO service_deliveries (event_id, event_name, received_at) VALUES (?, ?, ?)',
    );
  }

  firstTime(eventId: string, eventName: string): boolean {
    return this.#insert.run(eventId, eventName, Date.now()).changes === 1;
  }
}
