import type { AlertLevel, BalanceAlert } from './store.js';

/** What one check found for an alert's currency: its available balance in minor units, or why not. */
export type Reading = { ok: true; minor: number } | { ok: false; error: string };

/** A message an alert posts: a crossing, or the balance becoming unreadable or readable again. */
export type PostKind = 'below' | 'recovered' | 'read-failed' | 'read-ok';

export interface Decision {
  level: AlertLevel;
  readFailing: boolean;
  /** What to post, in order (a read that works again and a crossing at once are two posts). */
  posts: PostKind[];
}

/**
 * The alert's next state after a reading, and what to post: once when the balance goes under the
 * threshold, once when it is back at or above it, never on a check that finds it where it was.
 * A failed read changes nothing about the level and posts no crossing; it is said once, and once
 * when reads work again. A new alert that finds the balance already under says so; one above is silent.
 */
export function decide(
  alert: Pick<BalanceAlert, 'level' | 'readFailing' | 'thresholdMinor'>,
  reading: Reading,
): Decision {
  if (!reading.ok) {
    return { level: alert.level, readFailing: true, posts: alert.readFailing ? [] : ['read-failed'] };
  }
  const posts: PostKind[] = alert.readFailing ? ['read-ok'] : [];
  const level: AlertLevel = reading.minor < alert.thresholdMinor ? 'below' : 'above';
  if (level === 'below' && alert.level !== 'below') posts.push('below');
  if (level === 'above' && alert.level === 'below') posts.push('recovered');
  return { level, readFailing: false, posts };
}
