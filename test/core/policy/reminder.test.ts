import { describe, expect, it } from 'vitest';
import {
  isPolicyError,
  type PolicyError,
  parsePolicyText,
  reminderMs,
  reminderOfRule,
} from '../../../src/core/policy/index.js';

const withReminder = (reminder: string) =>
  [
    'rules:',
    '  - name: payouts',
    '    tools: [create_payout]',
    '    allow: [operator]',
    `    approval: { approvers: 1, role: approver, reminder: ${reminder} }`,
    '  - tools: [create_conversion]',
    '    allow: [operator]',
    '    approval: { approvers: 1, role: approver }',
  ].join('\n');

function issuesOf(text: string): readonly string[] {
  try {
    parsePolicyText(text, 'test.yaml');
  } catch (error) {
    if (isPolicyError(error)) return (error as PolicyError).issues;
    throw error;
  }
  throw new Error('expected a PolicyError');
}

describe('a rule’s approval.reminder', () => {
  it('takes minutes, hours or off, and defaults to 15 minutes', () => {
    expect(reminderMs(undefined)).toBe(15 * 60_000);
    expect(reminderMs('30m')).toBe(30 * 60_000);
    expect(reminderMs('2h')).toBe(2 * 3_600_000);
    expect(reminderMs('off')).toBeUndefined();
    const policy = parsePolicyText(withReminder('45m'), 'ok.yaml');
    expect(policy.rules[0]?.approval?.reminder).toBe('45m');
    // Found by the label the approval keeps: a named rule by name, another by its position.
    expect(reminderOfRule(policy, "'payouts'")).toBe(45 * 60_000);
    expect(reminderOfRule(policy, 'rules[1]')).toBe(15 * 60_000);
    expect(reminderOfRule(policy, "'gone'")).toBe(15 * 60_000);
    expect(reminderOfRule(parsePolicyText(withReminder('off'), 'off.yaml'), "'payouts'")).toBeUndefined();
  });

  it('refuses what is not a duration, with the path and what to write', () => {
    for (const bad of ['"15"', '15s', '0m', '1d', 'soon', '-5m']) {
      expect(issuesOf(withReminder(bad)).join('\n')).toMatch(
        /rules\[0\]\.approval\.reminder: must be a duration in minutes or hours \(15m, 2h\) or off/,
      );
    }
    expect(issuesOf(withReminder('169h')).join('\n')).toMatch(
      /rules\[0\]\.approval\.reminder: must be at most a week/,
    );
  });
});
