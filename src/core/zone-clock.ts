import { z } from 'zod';

/** The weekdays, as `Intl` writes them in English and the policy names them. */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** What the wall clocks of a zone show at an instant. */
export interface WallClock {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: Weekday;
}

/** Whether the runtime knows this IANA zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A zone a policy names (`zone: Europe/Berlin`): one the runtime knows. */
export const ZoneSchema = z
  .string()
  .trim()
  .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin, America/New_York or UTC');

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock of `zone` at `at`, daylight saving as the IANA zone says. */
export function wallClockIn(zone: string, at: Date | number): WallClock {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatIn(zone).formatToParts(at)) parts[part.type] = part.value;
  const weekday = WEEKDAYS.find((d) => d === parts.weekday) ?? 'Mon';
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday,
  };
}

/** The wall time of `zone` at `at` read as if it were UTC, as epoch milliseconds (whole seconds). */
export function wallAsUtc(zone: string, at: Date | number): number {
  const w = wallClockIn(zone, at);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}
