import type { Logger } from '../../core/log.js';
import { optional } from '../../core/optional.js';
import { describeSlackError, rateLimitedFor, slackRefusal } from '../web-api-errors.js';
import type { OutboxRows } from './outbox-rows.js';

/** One Web API call (`chat.postMessage`, `chat.update`, …) with its arguments; resolves with Slack's answer. */
export type SlackCall = (method: string, args: Record<string, unknown>) => Promise<unknown>;

export interface OutboxOptions {
  rows: OutboxRows;
  call: SlackCall;
  log: Logger;
  /** How often the outbox looks for work other processes queued (default 1 s). */
  pollMs?: number;
  now?: () => number;
}

/** Slack refusals that a retry cannot fix: the message is dropped with an error in the log. */
const PERMANENT = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'no_text',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'missing_scope',
  'message_not_found',
  'cant_update_message',
  'invalid_arguments',
]);

/** Whether Slack refused a call in a way a retry cannot fix (the approvals' posts ask this too). */
export function isPermanentRefusal(error: unknown): boolean {
  return PERMANENT.has(slackRefusal(error) ?? '');
}

const LEASE_MS = 30_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** When to try again after a failure, or undefined when trying again is pointless. */
function retryDelay(error: unknown, attempts: number): number | undefined {
  const wait = rateLimitedFor(error);
  if (wait !== undefined) return Math.max(1, wait) * 1000;
  if (isPermanentRefusal(error)) return undefined;
  return Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(attempts, 10));
}

const describe = describeSlackError;

/**
 * Messages for Slack, kept in the database until Slack takes them, and sent strictly in the order
 * they were queued: the head waits (for `Retry-After` on 429, with backoff on 5xx and network
 * errors) and nothing overtakes it. A crash loses nothing; replicas sharing the database send each
 * message once (a lease on the head) and in the same order. A refusal a retry cannot fix
 * (`channel_not_found`, `not_in_channel`, …) is logged and skipped.
 */
export class SlackOutbox {
  readonly #rows: OutboxRows;
  readonly #options: OutboxOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;
  readonly #idle: (() => void)[] = [];

  constructor(options: OutboxOptions) {
    this.#rows = options.rows;
    this.#options = options;
  }

  /**
   * Queues a call; with a `dedupeKey`, a second call with the same key is not queued (one daily
   * anchor across replicas, one post per event). Resolves with whether it was queued.
   */
  async enqueue(method: string, args: Record<string, unknown>, dedupeKey?: string): Promise<boolean> {
    const queued =
      (await this.#rows.add([{ method, args, ...optional('dedupeKey', dedupeKey) }], this.#now())) === 1;
    if (queued) this.wake();
    return queued;
  }

  start(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setInterval(() => this.wake(), this.#options.pollMs ?? 1_000);
    this.#timer.unref();
    this.wake();
  }

  /** Sends what is due now (one drain at a time; a wake during a drain runs another after it). */
  wake(): void {
    if (this.#closed) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain()
      .catch((error: unknown) => {
        // The database, not Slack: the poll tries again.
        this.#options.log.error('slack: the outbox could not be read; trying again at the next poll', {
          error,
        });
      })
      .finally(() => {
        this.#running = undefined;
        if (this.#again && !this.#closed) {
          this.#again = false;
          this.wake();
        } else {
          for (const resolve of this.#idle.splice(0)) resolve();
        }
      });
  }

  /** Resolves once nothing is being sent (tests and shutdown). */
  settled(): Promise<void> {
    if (this.#running === undefined) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Messages not yet sent. */
  pending(): Promise<number> {
    return this.#rows.pending();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    await this.#running;
  }

  async #drain(): Promise<void> {
    while (!this.#closed) {
      const now = this.#now();
      const row = await this.#rows.claimHead(now, now + LEASE_MS);
      if (row === undefined) return;
      try {
        await this.#options.call(row.method, row.args);
        await this.#rows.sent(row.id, this.#now());
      } catch (error) {
        const attempts = row.attempts + 1;
        const delay = retryDelay(error, attempts);
        if (delay === undefined) {
          this.#options.log.error('slack: a message could not be posted and is dropped', {
            method: row.method,
            error: describe(error),
          });
          await this.#rows.dropped(row.id, this.#now(), attempts, describe(error));
          continue;
        }
        this.#options.log.warn('slack: posting failed; will retry in order', {
          method: row.method,
          attempts,
          retryInMs: delay,
          error: describe(error),
        });
        await this.#rows.retryAt(row.id, attempts, this.#now() + delay, describe(error));
        return;
      }
    }
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }
}
