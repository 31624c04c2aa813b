import type { Logger } from '../log.js';
import type { ApprovalListener } from './types.js';
import type { ApprovalEvent } from './view-schema.js';

/** The feed as a follower reads it: each call is its own read (or, for `advance`, transaction). */
export interface FeedReader {
  /** Committed events after `seq`, oldest first. */
  after(seq: number, limit?: number): Promise<ApprovalEvent[]>;
  /** The newest sequence number (0 when empty). */
  head(): Promise<number>;
  /** Where a consumer stands; undefined for one that never read. */
  cursor(consumer: string): Promise<number | undefined>;
  /** Records that a consumer has handled everything up to `seq` (never moves back). */
  advance(consumer: string, seq: number): Promise<void>;
}

export interface FollowOptions {
  /** The consumer's name; its position is kept in the database under it. */
  consumer: string;
  /** Handles one event; throwing means "not done": the same event is handed again later. */
  handle(event: ApprovalEvent): Promise<void>;
  /** A consumer that never read starts at the beginning of the feed, or at its end. */
  startAt?: 'beginning' | 'end';
  /** How often other processes' changes are looked for (default 250 ms: seen within a second). */
  pollMs?: number;
  /** Pauses before handing a failed event again: doubling from `retryMs` up to 30 s (default 500 ms). */
  retryMs?: number;
  log?: Logger;
}

export interface FeedFollower {
  /** The last sequence number handled. */
  readonly position: number;
  /** Handles everything committed so far (tests, and shutdown); resolves when caught up or failing. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

const MAX_RETRY_MS = 30_000;

/**
 * Follows the feed for one consumer: in order, at least once (the position moves only after the
 * handler succeeded, so a crash repeats the event, never skips it), resumable after a restart. Woken
 * at once by changes in this process; changes committed by other processes are picked up by polling.
 */
export function followFeed(
  feed: FeedReader,
  subscribe: (listener: ApprovalListener) => () => void,
  options: FollowOptions,
): FeedFollower {
  const { consumer, handle } = options;
  let position = 0;
  let started = false;
  /** Where the consumer stands, read once before the first pass. */
  const start = async (): Promise<void> => {
    const known = await feed.cursor(consumer);
    position = known ?? (options.startAt === 'end' ? await feed.head() : 0);
    // A new consumer that starts at the end says so durably: after a restart it must not start at a
    // later end and skip what came in between.
    if (known === undefined && position > 0) await feed.advance(consumer, position);
    started = true;
  };
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  /** Not done: the same event (or the same read of the feed) is tried again after a backoff. */
  const retryLater = (error: unknown, seq: number): void => {
    failures += 1;
    const delay = Math.min((options.retryMs ?? 500) * 2 ** (failures - 1), MAX_RETRY_MS);
    options.log?.warn('feed consumer failed; it will be tried again', {
      consumer,
      seq,
      retryInMs: delay,
      error,
    });
    clearTimeout(retryTimer);
    retryTimer = setTimeout(wake, delay).unref();
  };

  const pass = async (): Promise<void> => {
    if (!started) await start();
    for (;;) {
      const batch = await feed.after(position);
      if (batch.length === 0 || stopped) {
        // Caught up: whatever failed before is behind us, and polling takes over again.
        if (batch.length === 0) failures = 0;
        return;
      }
      for (const event of batch) {
        if (stopped) return;
        try {
          await handle(event);
        } catch (error) {
          retryLater(error, event.seq);
          return;
        }
        failures = 0;
        position = event.seq;
        await feed.advance(consumer, position);
      }
    }
  };

  function wake(): void {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    // Reading the feed or recording the position can fail too (a database locked past its busy
    // timeout): that is a failure to retry, never an error that ends the process.
    running = pass()
      .catch((error: unknown) => retryLater(error, position + 1))
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          wake();
        }
      });
  }

  const unsubscribe = subscribe(() => wake());
  // Other processes' changes: a pass reads what is new (one indexed query when nothing is).
  const poll = setInterval(() => {
    if (running === undefined && failures === 0) wake();
  }, options.pollMs ?? 250).unref();
  wake();

  return {
    get position() {
      return position;
    },
    async drain() {
      while (running !== undefined) await running;
      if (stopped || failures > 0 || (started && (await feed.head()) <= position)) return;
      wake();
      while (running !== undefined) await running;
    },
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(poll);
      clearTimeout(retryTimer);
      await running;
    },
  };
}
