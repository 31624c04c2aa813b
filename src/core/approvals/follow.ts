import type { Logger } from '../log.js';
import type { ApprovalFeed } from './feed.js';
import type { ApprovalListener } from './types.js';
import type { ApprovalEvent } from './view-schema.js';

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
  feed: ApprovalFeed,
  subscribe: (listener: ApprovalListener) => () => void,
  options: FollowOptions,
): FeedFollower {
  const { consumer, handle } = options;
  let position = feed.cursor(consumer) ?? (options.startAt === 'end' ? feed.head() : 0);
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  const pass = async (): Promise<void> => {
    for (;;) {
      const batch = feed.after(position);
      if (batch.length === 0 || stopped) return;
      for (const event of batch) {
        if (stopped) return;
        try {
          await handle(event);
        } catch (error) {
          failures += 1;
          const delay = Math.min((options.retryMs ?? 500) * 2 ** (failures - 1), MAX_RETRY_MS);
          options.log?.warn('feed consumer failed; the event will be handed again', {
            consumer,
            seq: event.seq,
            retryInMs: delay,
            error: error instanceof Error ? error.message : String(error),
          });
          clearTimeout(retryTimer);
          retryTimer = setTimeout(wake, delay).unref();
          return;
        }
        failures = 0;
        position = event.seq;
        feed.advance(consumer, position);
      }
    }
  };

  function wake(): void {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = pass().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        wake();
      }
    });
  }

  const unsubscribe = subscribe(() => wake());
  const poll = setInterval(() => {
    if (running === undefined && failures === 0 && feed.head() > position) wake();
  }, options.pollMs ?? 250).unref();
  wake();

  return {
    get position() {
      return position;
    },
    async drain() {
      while (running !== undefined) await running;
      if (stopped || failures > 0 || feed.head() <= position) return;
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
