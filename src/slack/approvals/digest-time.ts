/** When the morning digest is posted: a local time in an IANA time zone (`09:00 Europe/Berlin`). */
export interface DigestTime {
  hour: number;
  minute: number;
  /** An IANA zone name as `Intl` knows it (`Europe/Berlin`, `UTC`). */
  zone: string;
}

export const DIGEST_EXAMPLE = '09:00 Europe/Berlin';

/** The digest time, or what is wrong with the text (for the configuration's error). */
export function parseDigestTime(text: string): DigestTime | { problem: string } {
  const match = /^([01]\d|2[0-3]):([0-5]\d)\s+(\S+)$/.exec(text.trim());
  if (match === null)
    return { problem: `must be a time HH:MM and an IANA time zone, such as ${DIGEST_EXAMPLE}` };
  const zone = match[3] ?? '';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return {
      problem: `${zone} is not a time zone this system knows; give an IANA name such as Europe/Berlin, America/New_York or UTC`,
    };
  }
  return { hour: Number(match[1]), minute: Number(match[2]), zone };
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The local day (`2026-11-26`) and minute of the day at `now` in `zone`. */
export function localDay(now: Date, zone: string): { day: string; minute: number } {
  const parts: Record<string, string> = {};
  for (const part of formatIn(zone).formatToParts(now)) parts[part.type] = part.value;
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** How late a digest may still be posted (a process that was down at its time). */
export const DIGEST_GRACE_MINUTES = 60;

/**
 * The local day whose digest is due at `now`, or undefined: from its time for an hour. (A day that
 * skips the time for summer time posts at the first minute after it; a repeated hour posts once,
 * the day being the claim's key.)
 */
export function digestDueDay(time: DigestTime, now: Date): string | undefined {
  const { day, minute } = localDay(now, time.zone);
  const at = time.hour * 60 + time.minute;
  return minute >= at && minute < at + DIGEST_GRACE_MINUTES ? day : undefined;
}

export const formatDigestTime = (time: DigestTime): string =>
  `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')} ${time.zone}`;
