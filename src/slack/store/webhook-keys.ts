import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../core/db.js';

export interface WebhookTarget {
  eventName: string;
  /** The Slack channel that subscribed: deliveries of the event are posted there. */
  channel: string;
}

const digestOf = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/**
 * The keys bankops gave the service for its webhook subscriptions, kept only as SHA-256 digests (a
 * stolen database forges no delivery), each with the event and the channel it serves.
 */
export class WebhookKeys {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Records a new key before the service is given it, so its first delivery is never refused. */
  add(key: string, target: WebhookTarget & { createdBy: string }): void {
    this.#db
      .prepare(
        `INSERT INTO service_webhook_keys (key_digest, event_name, channel_id, created_by, created_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(digestOf(key).toString('hex'), target.eventName, target.channel, target.createdBy, Date.now());
  }

  /** The service took the new key: the event's older keys stop being accepted. */
  keepOnly(eventName: string, key: string): void {
    this.#db
      .prepare('DELETE FROM service_webhook_keys WHERE event_name = ? AND key_digest != ?')
      .run(eventName, digestOf(key).toString('hex'));
  }

  /** The service refused the new key (or the subscription was deleted): forget it. */
  remove(key: string): void {
    this.#db
      .prepare('DELETE FROM service_webhook_keys WHERE key_digest = ?')
      .run(digestOf(key).toString('hex'));
  }

  forgetEvent(eventName: string): void {
    this.#db.prepare('DELETE FROM service_webhook_keys WHERE event_name = ?').run(eventName);
  }

  /**
   * The subscription a delivery's key belongs to. Every stored digest is compared in constant time
   * (no early exit, no index lookup on the secret), so timing tells nothing about the keys.
   */
  match(key: string): WebhookTarget | undefined {
    const presented = digestOf(key);
    const rows = this.#db
      .prepare('SELECT key_digest, event_name, channel_id FROM service_webhook_keys')
      .all() as { key_digest: string; event_name: string; channel_id: string }[];
    let found: WebhookTarget | undefined;
    for (const row of rows) {
      const stored = Buffer.from(row.key_digest, 'hex');
      if (stored.length === presented.length && timingSafeEqual(stored, presented) && found === undefined) {
        found = { eventName: row.event_name, channel: row.channel_id };
      }
    }
    return found;
  }
}

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
