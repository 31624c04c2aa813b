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

/**
 * What a store shared by replicas on several hosts adds to following the feed (PostgreSQL):
 * wake-ups when any process commits, and consumer groups. Without it (SQLite: one file, one host)
 * followers poll, and every process reads the feed for itself.
 */
export interface FeedSharing {
  /**
   * Calls `wake` whenever any process may have committed feed events (a hint: the feed holds the
   * truth, and the follower's poll stays as the fallback). Returns a function that stops it.
   */
  onCommit(wake: () => void): () => void;
  /**
   * One turn of the consumer group `consumer`: unless another process holds the group right now,
   * runs `work` from the group's position (a new group starts at `startAt`) and records the
   * position `work` returns, releasing the group; resolves false, doing nothing, when another
   * process holds it. A process that dies mid-turn lets go of the group with its connection.
   */
  turn(
    consumer: string,
    startAt: 'beginning' | 'end',
    work: (position: number) => Promise<number>,
  ): Promise<boolean>;
}

export interface FollowOptions {
  /** The consumer's name; its position is kept in the database under it. */
  consumer: string;
  /** Handles one event; throwing means "not done": the same event is handed again later. */
  handle(event: ApprovalEvent): Promise<void>;
  /** A consumer that never read starts at the beginning of the feed, or at its end. */
  startAt?: 'beginning' | 'end';
  /**
   * A consumer group: each event is handed to one process of the group, whatever the number of
   * replicas, where the store shares groups (`FeedSharing`); elsewhere each process reads for itself.
   */
  group?: boolean;
  /** How often other processes' changes are looked for (default 250 ms; a fallback to wake-ups). */
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
/** Events a group turn takes at most: a turn holds the group, so it is kept short. */
const GROUP_BATCH = 50;

/**
 * Follows the feed for one consumer: in order, at least once (the position moves only after the
 * handler succeeded, so a crash repeats the event, never skips it), resumable after a restart. Woken
 * at once by changes in this process, and by other processes' commits where the store says so
 * (`FeedSharing`); a poll finds them otherwise. A group (`options.group` on a sharing store) reads
 * its position from the store at each turn and moves it there, so one replica handles an event
 * and another carries on where it stopped; a replica that dies mid-turn had its turn rolled back,
 * and the next one hands those events again (at least once: handlers keep their effects once).
 */
export function followFeed(
  feed: FeedReader,
  subscribe: (listener: ApprovalListener) => () => void,
  options: FollowOptions,
  sharing?: FeedSharing,
): FeedFollower {
  const groups = options.group === true ? sharing : undefined;
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

  /** Hands events after `from` until one fails; returns the last one handled and the failure. */
  const handleBatch = async (
    from: number,
  ): Promise<{ last: number; handled: number; failed?: { error: unknown; seq: number } }> => {
    let last = from;
    let handled = 0;
    for (const event of await feed.after(from, GROUP_BATCH)) {
      if (stopped) break;
      try {
        await handle(event);
      } catch (error) {
        return { last, handled, failed: { error, seq: event.seq } };
      }
      failures = 0;
      last = event.seq;
      handled += 1;
    }
    return { last, handled };
  };

  /** A group's pass: turns while there is something to take and this process may take it. */
  const groupPass = async (shared: FeedSharing): Promise<void> => {
    for (;;) {
      // Two plain reads first: an idle group is not locked at every poll.
      const known = await feed.cursor(consumer);
      if (known !== undefined) {
        position = known;
        if ((await feed.head()) <= known) {
          failures = 0;
          return;
        }
      }
      let outcome: Awaited<ReturnType<typeof handleBatch>> | undefined;
      const held = await shared.turn(consumer, options.startAt ?? 'beginning', async (from) => {
        outcome = await handleBatch(from);
        return outcome.last;
      });
      // Another replica holds the group: it takes these events (and its own wake-up brings it
      // back for any that commit while it finishes).
      if (!held || outcome === undefined || stopped) return;
      position = outcome.last;
      if (outcome.failed !== undefined) {
        retryLater(outcome.failed.error, outcome.failed.seq);
        return;
      }
      if (outcome.handled === 0) return;
    }
  };

  const pass = async (): Promise<void> => {
    if (groups !== undefined) return groupPass(groups);
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
  const unlisten = sharing?.onCommit(() => wake()) ?? (() => {});
  // Other processes' changes: a pass reads what is new (one indexed query when nothing is).
  const poll = setInterval(() => {
    if (running === undefined && failures === 0) wake();
  }, options.pollMs ?? 250).unref();
  wake();

  /**
   * A group is drained when its position (whoever moved it) reaches the head as of now; a store
   * that cannot be read ends the wait, as a failing handler does (the follower retries by itself).
   */
  const drainGroup = async (): Promise<void> => {
    const at = () => feed.cursor(consumer).catch(() => null);
    const target = await feed.head().catch(() => undefined);
    if (target === undefined) return;
    for (;;) {
      if (stopped || failures > 0) return;
      const before = await at();
      if (before === null) return;
      if (before !== undefined && before >= target) {
        position = Math.max(position, before);
        return;
      }
      wake();
      while (running !== undefined) await running;
      // Another replica holds the group: its turn ends soon (or its session does).
      if ((await at()) === before) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  return {
    get position() {
      return position;
    },
    async drain() {
      while (running !== undefined) await running;
      if (groups !== undefined) return drainGroup();
      if (stopped || failures > 0 || (started && (await feed.head()) <= position)) return;
      wake();
      while (running !== undefined) await running;
    },
    async stop() {
      stopped = true;
      unsubscribe();
      unlisten();
      clearInterval(poll);
      clearTimeout(retryTimer);
      await running;
    },
  };
}
