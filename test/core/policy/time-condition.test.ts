import { describe, expect, it } from 'vitest';
import { conditionHolds } from '../../../src/core/policy/conditions.js';
import { type Condition, evaluate, PolicyError, parsePolicyText } from '../../../src/core/policy/index.js';
import { slackUser, tool } from '../../helpers/policy.js';

const policyWith = (time: string): string =>
  [
    'actors:',
    '  - { match: { slackUser: UOPS }, roles: [operator] }',
    'rules:',
    '  - name: out-of-hours',
    '    tools: [create_payout]',
    `    when: { time: ${time} }`,
    '    allow: [operator]',
    '    approval: { approvers: 1, role: approver }',
    '  - tools: [create_payout]',
    '    allow: [operator]',
  ].join('\n');

const timeCondition = (time: string): Condition => {
  const when = parsePolicyText(policyWith(time), 'time.yaml').rules[0]?.when;
  if (when === undefined) throw new Error('no condition');
  return when;
};

const at = (iso: string) =>
  conditionHolds(timeCondition(OFFICE), { input: {}, money: undefined, now: new Date(iso) });
const OFFICE = '{ outside: "08:00-18:00", zone: Europe/Berlin, days: [Mon, Tue, Wed, Thu, Fri] }';

function problems(time: string): string[] {
  try {
    parsePolicyText(policyWith(time), 'time.yaml');
  } catch (error) {
    if (error instanceof PolicyError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('time: { outside } conditions', () => {
  it('holds outside business hours in the zone, and on days the window does not cover', () => {
    // Wednesday 2026-11-25: Berlin is UTC+1 in winter.
    expect(at('2026-11-25T06:59:00Z')).toBe(true); // 07:59 in Berlin
    expect(at('2026-11-25T07:00:00Z')).toBe(false); // 08:00
    expect(at('2026-11-25T16:59:00Z')).toBe(false); // 17:59
    expect(at('2026-11-25T17:00:00Z')).toBe(true); // 18:00: the end is outside
    // Saturday noon in Berlin: not one of the days, so out of hours all day.
    expect(at('2026-11-28T11:00:00Z')).toBe(true);
    // Monday 00:30 in Berlin is still Sunday 23:30 UTC: the zone's day decides.
    expect(at('2026-11-29T23:30:00Z')).toBe(true);
  });

  it('follows daylight saving: the same UTC time is 07:30 before the change and 08:30 after', () => {
    // Berlin moves from UTC+1 to UTC+2 on Sunday 2026-03-29.
    expect(at('2026-03-27T06:30:00Z')).toBe(true); // Friday 07:30 CET: before hours
    expect(at('2026-03-30T06:30:00Z')).toBe(false); // Monday 08:30 CEST: in hours
    expect(at('2026-03-30T16:30:00Z')).toBe(true); // Monday 18:30 CEST
    // And back on Sunday 2026-10-25.
    expect(at('2026-10-23T16:30:00Z')).toBe(true); // Friday 18:30 CEST
    expect(at('2026-10-26T16:30:00Z')).toBe(false); // Monday 17:30 CET
  });

  it('a window across midnight: its small hours belong to the day it started on', () => {
    const night = timeCondition('{ outside: "22:00-06:00", zone: UTC, days: [Fri] }');
    const holds = (iso: string) => conditionHolds(night, { input: {}, money: undefined, now: new Date(iso) });
    // Friday 2026-11-27 22:00 to Saturday 06:00 is inside; the rest of the week is outside.
    expect(holds('2026-11-27T21:59:00Z')).toBe(true);
    expect(holds('2026-11-27T22:00:00Z')).toBe(false);
    expect(holds('2026-11-28T03:00:00Z')).toBe(false); // Saturday 03:00, Friday's night
    expect(holds('2026-11-28T06:00:00Z')).toBe(true);
    expect(holds('2026-11-27T03:00:00Z')).toBe(true); // Friday 03:00 is Thursday's night
    const everyNight = timeCondition('{ outside: "22:00-06:00", zone: UTC }');
    expect(
      conditionHolds(everyNight, { input: {}, money: undefined, now: new Date('2026-11-24T05:59:00Z') }),
    ).toBe(false);
    expect(
      conditionHolds(everyNight, { input: {}, money: undefined, now: new Date('2026-11-24T12:00:00Z') }),
    ).toBe(true);
  });

  it('the evaluator decides by the time it is given (the runtime clock)', () => {
    const policy = parsePolicyText(policyWith(OFFICE), 'time.yaml');
    const request = {
      tool: tool('create_payout'),
      input: {},
      actor: slackUser('UOPS'),
    };
    const night = evaluate(policy, { ...request, now: new Date('2026-11-25T22:00:00Z') });
    expect(night).toMatchObject({ decision: 'approval', rule: { label: "'out-of-hours'" } });
    const day = evaluate(policy, { ...request, now: new Date('2026-11-25T10:00:00Z') });
    expect(day.decision).toBe('allow');
  });

  it('refuses an unknown zone, a malformed or empty window and an unknown day at load, one line each', () => {
    expect(problems('{ outside: "08:00-18:00", zone: Europe/Atlantis }')).toEqual([
      'rules[0].when.time.zone: must be an IANA time zone such as Europe/Berlin, America/New_York or UTC',
    ]);
    expect(problems('{ outside: "8-18", zone: UTC }')).toEqual([
      'rules[0].when.time.outside: must be a window such as "08:00-18:00" or "22:00-06:00"',
    ]);
    expect(problems('{ outside: "25:00-06:00", zone: UTC }')).toHaveLength(1);
    expect(problems('{ outside: "09:00-09:00", zone: UTC }')).toEqual([
      'rules[0].when.time.outside: starts and ends at the same time; give a window such as "08:00-18:00"',
    ]);
    const day = problems('{ outside: "08:00-18:00", zone: UTC, days: [Mon, Funday] }');
    expect(day).toHaveLength(1);
    expect(day[0]).toMatch(/^rules\[0\]\.when\.time\.days\[1\]: must be one of Mon, Tue/);
    expect(problems('{ outside: "08:00-24:00", zone: UTC, days: [Sat] }')).toEqual([]);
  });
});
