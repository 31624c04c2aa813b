import { z } from 'zod';
import type { Policy } from './schema.js';

/** How long an approval waits without a vote before its approvers are reminded, unless its rule says. */
export const DEFAULT_REMINDER = '15m';

const UNIT_MS = { m: 60_000, h: 3_600_000 } as const;
const MAX_MS = 7 * 24 * 3_600_000;

/**
 * A rule's `approval.reminder`: `15m`, `2h`, or `off`. Minutes at the least (the reminders run every
 * 30 seconds) and a week at the most (no approval waits that long).
 */
export const ReminderSchema = z
  .string()
  .trim()
  .regex(/^(off|[1-9]\d{0,5}[mh])$/, 'must be a duration in minutes or hours (15m, 2h) or off')
  .refine((text) => text === 'off' || durationMs(text) <= MAX_MS, 'must be at most a week (168h)');

function durationMs(text: string): number {
  const unit = text.slice(-1) as keyof typeof UNIT_MS;
  return Number(text.slice(0, -1)) * UNIT_MS[unit];
}

/** The reminder's delay in milliseconds, or undefined when the rule turned reminders off. */
export function reminderMs(text: string | undefined): number | undefined {
  const value = text ?? DEFAULT_REMINDER;
  return value === 'off' ? undefined : durationMs(value);
}

/**
 * The reminder of the rule an approval was opened under, found by the label it keeps (`'payouts'`,
 * `rules[3]`) in the policy in force now: a reload changes the reminders of approvals already
 * waiting. A rule no longer there gets the default.
 */
export function reminderOfRule(policy: Pick<Policy, 'rules'>, ruleLabel: string): number | undefined {
  const indexed = /^rules\[(\d+)\]$/.exec(ruleLabel);
  const rule = indexed
    ? policy.rules[Number(indexed[1])]
    : policy.rules.find((r) => r.name !== undefined && `'${r.name}'` === ruleLabel);
  return reminderMs(rule?.approval?.reminder);
}
