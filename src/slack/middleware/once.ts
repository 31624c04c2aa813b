import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../../core/log.js';
import type { SeenEvents } from '../store/seen-events.js';

/**
 * Events API deliveries are handled once: the event id is recorded before any listener runs, so a
 * retry Slack sends (`X-Slack-Retry-Num`, when it thinks the first was lost) is acknowledged and
 * dropped, in this process or another sharing the database. Bolt itself does not de-duplicate.
 */
export function handleEventsOnce(seen: SeenEvents, log: Logger): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    if ('event_id' in body && typeof body.event_id === 'string' && !(await seen.firstTime(body.event_id))) {
      log.info('slack: a retried event was already handled; acknowledged only', {
        eventId: body.event_id,
        retryNum: context.retryNum,
      });
      return;
    }
    await next();
  };
}

/** The requests being handled (the answer follows the acknowledgement), so stopping lets them finish. */
export class Inflight {
  readonly #handling = new Set<Promise<void>>();

  readonly middleware: Middleware<AnyMiddlewareArgs> = async ({ next }) => {
    const handling = next();
    this.#handling.add(handling);
    try {
      await handling;
    } finally {
      this.#handling.delete(handling);
    }
  };

  /** Waits for what is being handled, at most `ms`; the number still running after. */
  async drain(ms: number): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.#handling.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.#handling]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
    }
    return this.#handling.size;
  }
}
