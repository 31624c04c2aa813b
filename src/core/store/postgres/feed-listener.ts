import pg from 'pg';
import { usageError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { FEED_CHANNEL } from './feed.js';

export interface FeedListenerOptions {
  url: string;
  /**
   * Called on every wake-up: a NOTIFY (with its payload), a reconnection (notifications may have
   * been missed) or a poll (no payload: anything may have changed).
   */
  onWake: (payload?: string) => void;
  /** The fallback poll (default 1 s): NOTIFY is neither durable nor replayed. */
  pollMs?: number;
  channel?: string;
  log?: Pick<Logger, 'warn'>;
  /** Called each time the LISTEN connection is (re)established (tests, health). */
  onListening?: () => void;
}

const MAX_RECONNECT_MS = 5_000;

/**
 * Wake-ups for feed readers on a connection of its own (LISTEN holds a session, so never a pooled
 * one), reconnecting with backoff when it is lost, plus a poll in case a notification never
 * arrives. It only says "look now": readers read the table from their cursor.
 */
export class FeedListener {
  readonly #options: FeedListenerOptions;
  #client: pg.Client | undefined;
  #poll: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #failures = 0;
  #closed = false;

  constructor(options: FeedListenerOptions) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.channel ?? FEED_CHANNEL)) {
      throw usageError(`'${options.channel}' is not a usable channel name`);
    }
    this.#options = options;
  }

  /** Connects and listens; resolves once listening (or after the first failure, retrying behind). */
  async start(): Promise<void> {
    this.#poll ??= setInterval(() => this.#options.onWake(), this.#options.pollMs ?? 1_000);
    this.#poll.unref();
    await this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#options.url,
      application_name: 'bankops-feed-listener',
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    this.#client = client;
    client.on('notification', (message) => this.#options.onWake(message.payload ?? ''));
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.#options.channel ?? FEED_CHANNEL}`);
    } catch (error) {
      this.#lost(client, error);
      return;
    }
    this.#failures = 0;
    this.#options.onListening?.();
    // Whatever was notified while no one listened.
    this.#options.onWake();
  }

  #lost(client: pg.Client, error: unknown): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    this.#failures += 1;
    const delay = Math.min(MAX_RECONNECT_MS, 50 * 2 ** Math.min(this.#failures, 10));
    this.#options.log?.warn('feed listener lost its database connection; reconnecting', {
      inMs: delay,
      error: error instanceof Error ? error.message : 'connection ended',
    });
    this.#retry = setTimeout(() => void this.#connect(), delay);
    this.#retry.unref();
  }

  /** The server process of the LISTEN connection (tests end it to check the reconnection). */
  async backendPid(): Promise<number | undefined> {
    const rows = await this.#client?.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return rows?.rows[0]?.pid;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#poll !== undefined) clearInterval(this.#poll);
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
