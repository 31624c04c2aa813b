import { isDatabaseUnreachable, messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';

/** At most one line a minute says the database still cannot be reached. */
export const UNREACHABLE_EVERY_MS = 60_000;
/** How long passes must keep answering before an outage is said to be over (not a flap). */
const ANSWERING_FOR_MS = 10_000;

/** What the approvals' background work tells: each failure, and each pass the database answered. */
export interface BackgroundReporter {
  failed(error: unknown): void;
  answered(): void;
}

/**
 * How `serve`'s approvals background work (expiry, settlements, takeover) reports its failures.
 * Each failure is logged in full, except that the database cannot be reached: the timers meet that
 * every second or so while it is away, so it is said once as a warning, without a stack, then at
 * most once a minute with how many attempts failed since; once passes have answered for 10 s
 * without a failure, one line says so, and the next outage is said afresh. The first failure of another kind, or the
 * first after a quiet minute, is said at once.
 */
export function backgroundErrorReporter(
  log: Pick<Logger, 'info' | 'warn' | 'error'>,
  now: () => number = Date.now,
): BackgroundReporter {
  let saidAt: number | undefined;
  let lastAt = 0;
  let since = 0;
  /** Attempts that failed in the outage being said, all told. */
  let failed = 0;
  /** Since when passes have answered without a failure, during an outage said. */
  let answeringSince: number | undefined;
  return {
    failed(error) {
      if (!isDatabaseUnreachable(error)) {
        log.error('approvals background work failed; it goes on', { error });
        return;
      }
      const at = now();
      answeringSince = undefined;
      // A quiet minute since the last failure: this is a new outage.
      if (at - lastAt >= UNREACHABLE_EVERY_MS) saidAt = undefined;
      lastAt = at;
      failed = saidAt === undefined ? 1 : failed + 1;
      if (saidAt !== undefined && at - saidAt < UNREACHABLE_EVERY_MS) {
        since += 1;
        return;
      }
      const first = saidAt === undefined;
      log.warn(
        first
          ? 'approvals background work waits for the database; it goes on when the database is back'
          : 'approvals background work still waits for the database',
        { error: messageOf(error), ...(first ? {} : { failedAttempts: since + 1 }) },
      );
      saidAt = at;
      since = 0;
    },
    answered() {
      if (saidAt === undefined) return;
      // Said over only once passes have answered for a while: a flapping connection stays one outage.
      const at = now();
      answeringSince ??= at;
      if (at - answeringSince < ANSWERING_FOR_MS) return;
      answeringSince = undefined;
      log.info('approvals background work goes on: the database answers again', { failedAttempts: failed });
      saidAt = undefined;
      lastAt = 0;
      since = 0;
      failed = 0;
    },
  };
}
