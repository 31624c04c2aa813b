import { isTimeZone, wallAsUtc, wallClockIn } from '../../core/zone-clock.js';

/** When the morning digest is posted: a local time in an IANA time zone (`09:00 Europe/Berlin`). */
export interface DigestTime {
  hour: number;
  minute: number;
  /** An IANA zone name as `Intl` knows it (`Europe/Berlin`, `UTC`). */
  zone: string;
}

const DIGEST_EXAMPLE = '09:00 Europe/Berlin';

/** The digest time, or what is wrong with the text (for the configuration's error). */
export function parseDigestTime(text: string): DigestTime | { problem: string } {
  const match = /^([01]\d|2[0-3]):([0-5]\d)\s+(\S+)$/.exec(text.trim());
  if (match === null)
    return { problem: `must be a time HH:MM and an IANA time zone, such as ${DIGEST_EXAMPLE}` };
  const zone = match[3] ?? '';
  if (!isTimeZone(zone))
    return {
      problem: `${zone} is not a time zone this system knows; give an IANA name such as Europe/Berlin, America/New_York or UTC`,
    };
  return { hour: Number(match[1]), minute: Number(match[2]), zone };
}

/** The local day (`2026-11-26`) and minute of the day at `now` in `zone`. */
function localDay(now: Date, zone: string): { day: string; minute: number } {
  const wall = wallClockIn(zone, now);
  const two = (n: number) => String(n).padStart(2, '0');
  return { day: `${wall.year}-${two(wall.month)}-${two(wall.day)}`, minute: wall.hour * 60 + wall.minute };
}

/** How late a digest may still be posted (a process that was down at its time). */
const DIGEST_GRACE_MINUTES = 60;

/** Minutes of `now` as if its local wall time in `zone` were UTC, minus `now`: the zone's offset. */
function offsetMs(zone: string, at: number): number {
  const minute = Math.floor(at / 60_000) * 60_000;
  return wallAsUtc(zone, minute) - minute;
}

/**
 * The instant the digest of a local day (`2026-11-26`) is due. A time the day skips for summer
 * time (02:30 on the spring-forward day) falls at the first minute after the gap (03:00); a time
 * the day has twice (the autumn's repeated hour) is one of the two, the same for every replica.
 */
function digestInstant(time: DigestTime, day: string): number {
  const [year, month, date] = day.split('-').map(Number);
  const wall = Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1, time.hour, time.minute);
  const wallOf = (at: number) => at + offsetMs(time.zone, at);
  const guess = wall - offsetMs(time.zone, wall - offsetMs(time.zone, wall));
  if (wallOf(guess) === wall) return guess;
  // Skipped: the first minute whose local time is past it, searched within three hours either side.
  let low = guess - 3 * 3_600_000;
  let high = guess + 3 * 3_600_000;
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 120_000) * 60_000;
    if (wallOf(middle) >= wall) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The local day whose digest is due at `now`, or undefined: from its instant for an hour, whatever
 * midnight or a summer-time change falls in that hour (`23:30` posts until 00:30 the next day, under
 * the day it was due). A day's digest is keyed by that day, so it is posted once.
 */
export function digestDueDay(time: DigestTime, now: Date): string | undefined {
  const at = now.getTime();
  const grace = DIGEST_GRACE_MINUTES * 60_000;
  // The due instant lies in the last hour, so its local day is the one now or an hour ago.
  const days = new Set([localDay(new Date(at - grace), time.zone).day, localDay(now, time.zone).day]);
  for (const day of days) {
    const target = digestInstant(time, day);
    if (at >= target && at < target + grace) return day;
  }
  return undefined;
}

export const formatDigestTime = (time: DigestTime): string =>
  `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')} ${time.zone}`;
