import { isDatabaseUnreachable, messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';

/** At most one line a minute says the database still cannot be reached. */
export const UNREACHABLE_EVERY_MS = 60_000;

/**
 * How `serve`'s approvals background work (expiry, settlements, takeover) reports its failures.
 * Each failure is logged in full, except that the database cannot be reached: the timers meet that
 * every few hundred milliseconds while it is away, so it is said once as a warning, without a stack,
 * then at most once a minute with how many attempts failed since; the first failure of another
 * kind, or the first after a quiet minute, is said again at once.
 */
export function backgroundErrorReporter(
  log: Pick<Logger, 'warn' | 'error'>,
  now: () => number = Date.now,
): (error: unknown) => void {
  let saidAt: number | undefined;
  let lastAt = 0;
  let since = 0;
  return (error) => {
    if (!isDatabaseUnreachable(error)) {
      log.error('approvals background work failed; it goes on', { error });
      return;
    }
    const at = now();
    // A quiet minute since the last failure: this is a new outage.
    if (at - lastAt >= UNREACHABLE_EVERY_MS) saidAt = undefined;
    lastAt = at;
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
  };
}
