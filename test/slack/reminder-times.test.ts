import { describe, expect, it } from 'vitest';
import { dueReminder, reminderTimes } from '../../src/slack/approvals/reminders.js';

const MIN = 60_000;

describe('when an approval’s reminders fall due', () => {
  it('after the reminder, then halfway between it and the deadline', () => {
    expect(reminderTimes(0, 60 * MIN, 15 * MIN)).toEqual([15 * MIN, 37.5 * MIN]);
    expect(reminderTimes(0, 24 * 60 * MIN, 15 * MIN)).toEqual([15 * MIN, (15 + (24 * 60 - 15) / 2) * MIN]);
  });

  it('none when reminders are off or the deadline comes first; one when the second would follow too closely', () => {
    expect(reminderTimes(0, 60 * MIN, undefined)).toEqual([]);
    expect(reminderTimes(0, 10 * MIN, 15 * MIN)).toEqual([]);
    expect(reminderTimes(0, 15 * MIN, 15 * MIN)).toEqual([]);
    expect(reminderTimes(0, 16 * MIN, 15 * MIN)).toEqual([15 * MIN]);
  });

  it('the latest one due; a missed first is not made up once the second is due', () => {
    const times = [15 * MIN, 37.5 * MIN];
    expect(dueReminder(times, 15 * MIN - 1)).toBeUndefined();
    expect(dueReminder(times, 15 * MIN)).toBe(1);
    expect(dueReminder(times, 37.5 * MIN)).toBe(2);
    expect(dueReminder(times, 24 * 60 * MIN)).toBe(2);
  });
});
