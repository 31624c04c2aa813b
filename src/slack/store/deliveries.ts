import type { OutboxCall } from './outbox-rows.js';

/**
 * Service deliveries already received, by event id and name: a repeat (the service retries after a
 * timeout) is answered 200 and posts nothing new. SQL in `sqlite/deliveries.ts` and
 * `postgres/deliveries.ts`.
 */
export interface ServiceDeliveries {
  /**
   * Records a delivery and queues its messages in one transaction (this table and the outbox): true
   * the first time, false for a repeat, which queues nothing. An insert-if-absent decides.
   */
  accept(delivery: { eventId: string; eventName: string }, calls: readonly OutboxCall[]): Promise<boolean>;
}
