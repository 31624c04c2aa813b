import type { Logger } from '../../core/log.js';
import { describeSlackError, rateLimitedFor, slackRefusal } from '../web-api-errors.js';
import type { Db } from './database.js';

/** One Web API call (`chat.postMessage`, `chat.update`, …) with its arguments; resolves with Slack's answer. */
export type SlackCall = (method: string, args: Record<string, unknown>) => Promise<unknown>;

export interface OutboxOptions {
  db: Db;
  call: SlackCall;
  log: Logger;
  /** How often the outbox looks for work other processes queued (default 1 s). */
  pollMs?: number;
  now?: () => number;
}

interface Row {
  id: number;
  method: string;
  args_json: string;
  attempts: number;
  next_at: number;
  lease_until: number;
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
  readonly #db: Db;
  readonly #options: OutboxOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;
  readonly #idle: (() => void)[] = [];

  constructor(options: OutboxOptions) {
    this.#db = options.db;
    this.#options = options;
  }

  /**
   * Queues a call; with a `dedupeKey`, a second call with the same key is not queued (one daily
   * anchor across replicas, one post per event). Returns whether it was queued.
   */
  enqueue(method: string, args: Record<string, unknown>, dedupeKey?: string): boolean {
    const queued = this.add(method, args, dedupeKey);
    if (queued) this.wake();
    return queued;
  }

  /**
   * Queues without sending yet: for use inside a caller's transaction (a delivery recorded and its
   * message queued together); call `wake()` after it commits.
   */
  add(method: string, args: Record<string, unknown>, dedupeKey?: string): boolean {
    const now = this.#now();
    return (
      this.#db
        .prepare(
          `INSERT OR IGNORE INTO slack_outbox (dedupe_key, method, args_json, created_at, next_at)
           VALUES (?, ?, ?, ?, ?)`,
        )
        .run(dedupeKey ?? null, method, JSON.stringify(args), now, now).changes === 1
    );
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
    this.#running = this.#drain().finally(() => {
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
  pending(): number {
    return (
      this.#db.prepare('SELECT count(*) AS n FROM slack_outbox WHERE done_at IS NULL').get() as { n: number }
    ).n;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    await this.#running;
  }

  async #drain(): Promise<void> {
    const head = this.#db.prepare(
      'SELECT id, method, args_json, attempts, next_at, lease_until FROM slack_outbox WHERE done_at IS NULL ORDER BY id LIMIT 1',
    );
    const claim = this.#db.prepare(
      'UPDATE slack_outbox SET lease_until = ? WHERE id = ? AND done_at IS NULL AND lease_until <= ?',
    );
    while (!this.#closed) {
      const row = head.get() as Row | undefined;
      const now = this.#now();
      if (row === undefined || row.next_at > now || row.lease_until > now) return;
      if (claim.run(now + LEASE_MS, row.id, now).changes !== 1) return;
      try {
        await this.#options.call(row.method, JSON.parse(row.args_json) as Record<string, unknown>);
        this.#db
          .prepare('UPDATE slack_outbox SET done_at = ?, error = NULL WHERE id = ?')
          .run(this.#now(), row.id);
      } catch (error) {
        const attempts = row.attempts + 1;
        const delay = retryDelay(error, attempts);
        if (delay === undefined) {
          this.#options.log.error('slack: a message could not be posted and is dropped', {
            method: row.method,
            error: describe(error),
          });
          this.#db
            .prepare('UPDATE slack_outbox SET done_at = ?, attempts = ?, error = ? WHERE id = ?')
            .run(this.#now(), attempts, describe(error), row.id);
          continue;
        }
        this.#options.log.warn('slack: posting failed; will retry in order', {
          method: row.method,
          attempts,
          retryInMs: delay,
          error: describe(error),
        });
        this.#db
          .prepare(
            'UPDATE slack_outbox SET attempts = ?, next_at = ?, lease_until = 0, error = ? WHERE id = ?',
          )
          .run(attempts, this.#now() + delay, describe(error), row.id);
        return;
      }
    }
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }
}
