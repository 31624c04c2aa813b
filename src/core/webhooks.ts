import { createHash, timingSafeEqual } from 'node:crypto';
import { type Db, migrate } from './db.js';

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
    // The same table the Slack front end made before the keys moved here: created only if missing.
    migrate(db, 'webhook-keys-1', [
      `CREATE TABLE IF NOT EXISTS service_webhook_keys (
         key_digest TEXT PRIMARY KEY,
         event_name TEXT NOT NULL,
         channel_id TEXT NOT NULL,
         created_by TEXT NOT NULL,
         created_at INTEGER NOT NULL
       ) STRICT`,
    ]);
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

/** The path of `bankops serve` where the service delivers events. */
export const WEBHOOK_PATH = '/webhooks/service';

/**
 * Where the service delivers events to bankops, and the keys it was given: what the event-relay
 * tools need. The address is `BANKOPS_PUBLIC_URL` (or, with the embedded sandbox, the listener of
 * `bankops serve`), known once serve listens; a process that serves nothing has none.
 */
export class ServiceWebhooks {
  readonly keys: WebhookKeys;
  #base: string | undefined;

  constructor(db: Db) {
    this.keys = new WebhookKeys(db);
  }

  /** The base address the service reaches bankops at (said once, by `bankops serve`). */
  servedAt(base: string): void {
    this.#base = base.replace(/\/+$/, '');
  }

  /** The webhook URL to give the service, or undefined when this process serves nothing. */
  url(): string | undefined {
    return this.#base === undefined ? undefined : `${this.#base}${WEBHOOK_PATH}`;
  }
}
