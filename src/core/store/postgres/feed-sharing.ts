import type { FeedSharing } from '../../approvals/follow.js';
import type { Logger } from '../../log.js';
import { optional } from '../../optional.js';
import { POLICY_PAYLOAD } from './feed.js';
import { groupTurn } from './feed-group.js';
import { FeedListener } from './feed-listener.js';
import type { PgStore } from './pool.js';

/**
 * Following the feed across replicas on PostgreSQL: wake-ups by LISTEN/NOTIFY (every feed event
 * is appended with a `pg_notify` in its own transaction, delivered at commit, ./feed.ts) on one
 * connection of its own, opened when the first follower asks and closed with the last; consumer
 * groups by a lock on their cursor row (./feed-group.ts). A short command that follows nothing
 * opens no listening connection.
 */
export class PgFeedSharing implements FeedSharing {
  readonly #store: PgStore;
  readonly #url: string;
  readonly #log: Pick<Logger, 'warn'> | undefined;
  readonly #wakers = new Set<() => void>();
  /** Told when a policy version may have been recorded (`PolicyWakeups`). */
  readonly #policyWakers = new Set<() => void>();
  #listener: FeedListener | undefined;

  constructor(store: PgStore, url: string, log?: Pick<Logger, 'warn'>) {
    this.#store = store;
    this.#url = url;
    this.#log = log;
  }

  onCommit(wake: () => void): () => void {
    return this.#add(this.#wakers, wake);
  }

  /** `PolicyWakeups`: a new policy version, on the same listening connection as the feed. */
  onPolicyChange(wake: () => void): () => void {
    return this.#add(this.#policyWakers, wake);
  }

  #add(wakers: Set<() => void>, wake: () => void): () => void {
    wakers.add(wake);
    if (this.#listener === undefined) {
      const listener = new FeedListener({
        url: this.#url,
        onWake: (payload) => {
          // A feed event wakes the feed's readers, a policy version the policy's; a poll or a
          // reconnection (payload unknown) wakes both.
          if (payload !== POLICY_PAYLOAD) for (const waker of this.#wakers) waker();
          if (payload === undefined || payload === POLICY_PAYLOAD)
            for (const waker of this.#policyWakers) waker();
        },
        // The followers poll on their own; this one only covers a listener that stays down.
        pollMs: 5_000,
        ...optional('log', this.#log),
      });
      this.#listener = listener;
      // It retries behind a failed first connection by itself; the followers' poll covers the gap.
      void listener.start();
    }
    return () => {
      wakers.delete(wake);
      if (this.#wakers.size === 0 && this.#policyWakers.size === 0) void this.close();
    };
  }

  turn(
    consumer: string,
    startAt: 'beginning' | 'end',
    work: (position: number) => Promise<number>,
  ): Promise<boolean> {
    return groupTurn(this.#store, consumer, startAt, work);
  }

  /** Stops listening (the database's `close` does it before the pool ends). */
  async close(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.close();
  }
}
