import { createHash, timingSafeEqual } from 'node:crypto';

export interface WebhookTarget {
  eventName: string;
  /** The Slack channel that subscribed: deliveries of the event are posted there. */
  channel: string;
}

const digestOf = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();
const hexDigestOf = (key: string): string => digestOf(key).toString('hex');

/**
 * Where the keys' digests are kept (hex SHA-256), one statement each. Its SQL lives with each
 * backend (`store/sqlite/webhook-keys.ts`, `store/postgres/webhook-keys.ts`); hashing and the
 * comparison stay here, in one place.
 */
export interface WebhookKeyStore {
  add(digest: string, target: WebhookTarget & { createdBy: string }): Promise<void>;
  /** Deletes the event's other digests. */
  keepOnly(eventName: string, digest: string): Promise<void>;
  remove(digest: string): Promise<void>;
  forgetEvent(eventName: string): Promise<void>;
  /** Every digest with its event and channel (a handful: one or two per relayed event). */
  all(): Promise<(WebhookTarget & { digest: string })[]>;
}

/**
 * The keys bankops gave the service for its webhook subscriptions, kept only as SHA-256 digests (a
 * stolen database forges no delivery), each with the event and the channel it serves.
 */
export class WebhookKeys {
  readonly #store: WebhookKeyStore;

  constructor(store: WebhookKeyStore) {
    this.#store = store;
  }

  /** Records a new key before the service is given it, so its first delivery is never refused. */
  add(key: string, target: WebhookTarget & { createdBy: string }): Promise<void> {
    return this.#store.add(hexDigestOf(key), target);
  }

  /** The service took the new key: the event's older keys stop being accepted. */
  keepOnly(eventName: string, key: string): Promise<void> {
    return this.#store.keepOnly(eventName, hexDigestOf(key));
  }

  /** The service refused the new key (or the subscription was deleted): forget it. */
  remove(key: string): Promise<void> {
    return this.#store.remove(hexDigestOf(key));
  }

  forgetEvent(eventName: string): Promise<void> {
    return this.#store.forgetEvent(eventName);
  }

  /**
   * The subscription a delivery's key belongs to. Every stored digest is compared in constant time
   * (no early exit, no index lookup on the secret), so timing tells nothing about the keys.
   */
  async match(key: string): Promise<WebhookTarget | undefined> {
    const presented = digestOf(key);
    let found: WebhookTarget | undefined;
    for (const row of await this.#store.all()) {
      const stored = Buffer.from(row.digest, 'hex');
      if (stored.length === presented.length && timingSafeEqual(stored, presented) && found === undefined) {
        found = { eventName: row.eventName, channel: row.channel };
      }
    }
    return found;
  }
}

/** The path of `bankops serve` where the service delivers events. */
const WEBHOOK_PATH = '/webhooks/service';

/**
 * Where the service delivers events to bankops, and the keys it was given: what the event-relay
 * tools need. The address is `BANKOPS_PUBLIC_URL` (or, with the embedded sandbox, the listener of
 * `bankops serve`), known once serve listens; a process that serves nothing has none.
 */
export class ServiceWebhooks {
  readonly keys: WebhookKeys;
  #base: string | undefined;

  constructor(store: WebhookKeyStore) {
    this.keys = new WebhookKeys(store);
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
