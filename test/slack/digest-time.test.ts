import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config.js';
import { digestDueDay } from '../../src/slack/approvals/digest-time.js';
import { parseSlackSettings } from '../../src/slack/config.js';

const base = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret-123' };

function problems(digest: string): readonly string[] {
  try {
    parseSlackSettings({ ...base, BANKOPS_SLACK_DIGEST: digest });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('BANKOPS_SLACK_DIGEST', () => {
  it('is a local time and an IANA zone; unset means no digest', () => {
    const on = parseSlackSettings({ ...base, BANKOPS_SLACK_DIGEST: ' 09:00  Europe/Berlin ' });
    expect(on).toMatchObject({ config: { digest: { hour: 9, minute: 0, zone: 'Europe/Berlin' } } });
    const off = parseSlackSettings(base);
    expect(off.enabled && off.config.digest).toBeUndefined();
  });

  it('stops start-up on anything else, naming the variable and an example', () => {
    for (const bad of ['9:00 Europe/Berlin', '24:00 UTC', '09:60 UTC', '09:00', 'Europe/Berlin 09:00']) {
      expect(problems(bad)).toEqual([
        'BANKOPS_SLACK_DIGEST: must be a time HH:MM and an IANA time zone, such as 09:00 Europe/Berlin',
      ]);
    }
    expect(problems('09:00 Mars/Olympus')[0]).toMatch(
      /^BANKOPS_SLACK_DIGEST: Mars\/Olympus is not a time zone this system knows/,
    );
  });

  it('falls due at the local time, for an hour, across summer time', () => {
    const berlin = { hour: 9, minute: 0, zone: 'Europe/Berlin' };
    // Winter: 09:00 in Berlin is 08:00 UTC; summer: 07:00 UTC.
    expect(digestDueDay(berlin, new Date('2026-11-26T07:59:59Z'))).toBeUndefined();
    expect(digestDueDay(berlin, new Date('2026-11-26T08:00:00Z'))).toBe('2026-11-26');
    expect(digestDueDay(berlin, new Date('2026-11-26T08:59:59Z'))).toBe('2026-11-26');
    expect(digestDueDay(berlin, new Date('2026-11-26T09:00:00Z'))).toBeUndefined();
    expect(digestDueDay(berlin, new Date('2026-07-01T07:00:00Z'))).toBe('2026-07-01');
    // A time skipped when the clocks go forward (02:30 on 29 March 2026) is posted just after.
    const night = { hour: 2, minute: 30, zone: 'Europe/Berlin' };
    expect(digestDueDay(night, new Date('2026-03-29T01:00:00Z'))).toBe('2026-03-29');
    // The whole hour from the first minute after the gap (03:00 CEST = 01:00 UTC), not 30 minutes.
    expect(digestDueDay(night, new Date('2026-03-29T00:59:59Z'))).toBeUndefined();
    expect(digestDueDay(night, new Date('2026-03-29T01:45:00Z'))).toBe('2026-03-29');
    expect(digestDueDay(night, new Date('2026-03-29T02:00:00Z'))).toBeUndefined();
    // The local day, not the UTC one: 00:30 in Tokyo is the day before in UTC.
    expect(digestDueDay({ hour: 0, minute: 30, zone: 'Asia/Tokyo' }, new Date('2026-11-25T15:30:00Z'))).toBe(
      '2026-11-26',
    );
  });

  it('keeps its hour past local midnight, under the day it was due, once', () => {
    const late = { hour: 23, minute: 30, zone: 'Europe/Berlin' };
    // 23:30 in Berlin in November is 22:30 UTC; the grace runs to 00:30 local the next day.
    expect(digestDueDay(late, new Date('2026-11-26T22:29:59Z'))).toBeUndefined();
    expect(digestDueDay(late, new Date('2026-11-26T22:30:00Z'))).toBe('2026-11-26');
    expect(digestDueDay(late, new Date('2026-11-26T23:00:00Z'))).toBe('2026-11-26');
    expect(digestDueDay(late, new Date('2026-11-26T23:29:59Z'))).toBe('2026-11-26');
    expect(digestDueDay(late, new Date('2026-11-26T23:30:00Z'))).toBeUndefined();
    // In UTC itself the same: 23:59 is due until 00:59 the next day.
    const utc = { hour: 23, minute: 59, zone: 'UTC' };
    expect(digestDueDay(utc, new Date('2026-11-27T00:58:00Z'))).toBe('2026-11-26');
    expect(digestDueDay(utc, new Date('2026-11-27T00:59:00Z'))).toBeUndefined();
    // The autumn's repeated hour (02:30 twice on 25 October 2026) posts within one hour, once a day.
    const repeated = { hour: 2, minute: 30, zone: 'Europe/Berlin' };
    const due = [
      '2026-10-25T00:00:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:00:00Z',
      '2026-10-25T01:30:00Z',
    ]
      .map((at) => digestDueDay(repeated, new Date(at)))
      .filter((day) => day !== undefined);
    expect(due.length).toBeGreaterThanOrEqual(1);
    expect(new Set(due)).toEqual(new Set(['2026-10-25']));
  });
});
