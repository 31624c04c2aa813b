import { z } from 'zod';
import { WEEKDAYS, type Weekday, wallClockIn, ZoneSchema } from '../zone-clock.js';

/**
 * `time:` conditions of a rule's `when` (docs/policy.md "Out of hours"): `outside: "08:00-18:00"`
 * holds when the call comes outside that window, in the IANA `zone`, on the listed `days` (every
 * day by default). A window may cross midnight (`22:00-06:00`); its hours after midnight belong to
 * the day it started on. Daylight saving follows the zone (Intl, no table of our own).
 */

const CLOCK = /^(\d{2}):(\d{2})$/;

/** Minutes after midnight of `HH:MM` (`24:00` is 1440, for a window that runs to the end of the day). */
function minutesOf(text: string): number | undefined {
  const match = CLOCK.exec(text);
  if (match === null) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes !== 0)) return undefined;
  return hours * 60 + minutes;
}

const WindowText = z
  .string()
  .trim()
  .superRefine((text, ctx) => {
    const [from, to, ...rest] = text.split('-');
    const start = from === undefined ? undefined : minutesOf(from);
    const end = to === undefined ? undefined : minutesOf(to);
    if (rest.length > 0 || start === undefined || end === undefined || start === 1440) {
      ctx.addIssue({ code: 'custom', message: 'must be a window such as "08:00-18:00" or "22:00-06:00"' });
    } else if (start === end) {
      ctx.addIssue({
        code: 'custom',
        message: 'starts and ends at the same time; give a window such as "08:00-18:00"',
      });
    }
  });

export const TimeConditionSchema = z.strictObject({
  /** The business hours: the condition holds outside them. */
  outside: WindowText,
  zone: ZoneSchema,
  /** The days of the week, in `zone`, the window applies to; on the others every hour is outside. */
  days: z
    .array(z.enum(WEEKDAYS, { error: `must be one of ${WEEKDAYS.join(', ')}` }))
    .min(1)
    .optional(),
});
export type TimeCondition = z.output<typeof TimeConditionSchema>;

/** The weekday and minutes after midnight of an instant, on the wall clocks of `zone`. */
export function wallClock(at: Date, zone: string): { day: Weekday; minutes: number } {
  const wall = wallClockIn(zone, at);
  return { day: wall.weekday, minutes: wall.hour * 60 + wall.minute };
}

const dayBefore = (day: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7] ?? day;

/** Whether `at` falls inside the window on one of its days. */
export function insideWindow(condition: TimeCondition, at: Date): boolean {
  const [from = '', to = ''] = condition.outside.split('-');
  const start = minutesOf(from) ?? 0;
  const end = minutesOf(to) ?? 0;
  const { day, minutes } = wallClock(at, condition.zone);
  const on = (d: Weekday) => condition.days === undefined || condition.days.includes(d);
  if (start < end) return on(day) && minutes >= start && minutes < end;
  // Across midnight: the evening belongs to today, the small hours to the day before.
  return (on(day) && minutes >= start) || (on(dayBefore(day)) && minutes < end);
}

/** A `time:` condition holds when the call comes outside its window. */
export const timeConditionHolds = (condition: TimeCondition, now: Date): boolean =>
  !insideWindow(condition, now);
