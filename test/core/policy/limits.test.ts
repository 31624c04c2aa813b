import { describe, expect, it } from 'vitest';
import { dayStart, LimitsSectionSchema, limitExceeded } from '../../../src/core/policy/limits.js';
import { parsePolicyText } from '../../../src/core/policy/parse.js';
import { totalConditionHolds } from '../../../src/core/policy/totals.js';

const at = (iso: string) => new Date(iso);

describe('the calendar day of a zone', () => {
  it('starts at local midnight, daylight saving as the zone says', () => {
    // Berlin in winter (UTC+1), in summer (UTC+2), and on the day clocks go forward (29 March 2026).
    expect(new Date(dayStart(at('2026-11-29T10:00:00Z'), 'Europe/Berlin')).toISOString()).toBe(
      '2026-11-28T23:00:00.000Z',
    );
    expect(new Date(dayStart(at('2026-07-01T21:59:00Z'), 'Europe/Berlin')).toISOString()).toBe(
      '2026-06-30T22:00:00.000Z',
    );
    expect(new Date(dayStart(at('2026-07-01T22:00:00Z'), 'Europe/Berlin')).toISOString()).toBe(
      '2026-07-01T22:00:00.000Z',
    );
    expect(new Date(dayStart(at('2026-03-29T12:00:00Z'), 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-28T23:00:00.000Z',
    );
    expect(new Date(dayStart(at('2026-11-29T03:00:00Z'), 'America/New_York')).toISOString()).toBe(
      '2026-11-28T05:00:00.000Z',
    );
    expect(new Date(dayStart(at('2026-11-29T00:00:00Z'), 'UTC')).toISOString()).toBe(
      '2026-11-29T00:00:00.000Z',
    );
  });

  it('tells each day apart when asked again within it, after it and before it', () => {
    // The day clocks go back in Berlin (25 October 2026) lasts 25 hours: 22:00 UTC the day before to 23:00 UTC.
    const start = (iso: string) => new Date(dayStart(at(iso), 'Europe/Berlin')).toISOString();
    expect(start('2026-10-25T12:00:00Z')).toBe('2026-10-24T22:00:00.000Z');
    expect(start('2026-10-25T22:59:59Z')).toBe('2026-10-24T22:00:00.000Z');
    expect(start('2026-10-25T23:00:00Z')).toBe('2026-10-25T23:00:00.000Z');
    expect(start('2026-10-24T21:59:59Z')).toBe('2026-10-23T22:00:00.000Z');
    expect(start('2026-10-24T22:00:00Z')).toBe('2026-10-24T22:00:00.000Z');
    expect(start('2026-10-25T22:59:59.999Z')).toBe('2026-10-24T22:00:00.000Z');
  });
});

describe('limits and totals, as the evaluator weighs them', () => {
  const limits = LimitsSectionSchema.parse({
    zone: 'Europe/Berlin',
    perRequester: { USD: 50000 },
    perSourceAccount: { default: 100 },
  });

  it('names the limit and what is left, in exact minor units', () => {
    // 40,000.01 counted before; this call of 10,000 would make 50,000.01.
    const totals = { currency: 'USD', rolling: {}, today: { requester: 5_000_001 } };
    expect(limitExceeded(limits, totals, 1_000_000)).toBe(
      'daily limit per requester 50,000.00 USD (Europe/Berlin day): 9,999.99 USD left (policy limits.perRequester)',
    );
    // Exactly at the cap is allowed.
    expect(limitExceeded(limits, { ...totals, today: { requester: 5_000_000 } }, 1_000_000)).toBeUndefined();
    // `default` covers other currencies; JPY has no minor unit.
    expect(limitExceeded(limits, { currency: 'JPY', rolling: {}, today: { sourceAccount: 101 } }, 101)).toBe(
      'daily limit per source account 100 JPY (Europe/Berlin day): 100 JPY left (policy limits.perSourceAccount)',
    );
  });

  it('a total: condition holds once the window reaches its threshold, this call included', () => {
    const condition = { of: 'requester' as const, within: '24h', atLeast: { USD: 50000 } };
    expect(
      totalConditionHolds(condition, { currency: 'USD', rolling: { 'requester/24h': 4_999_999 }, today: {} }),
    ).toBe(false);
    expect(
      totalConditionHolds(condition, { currency: 'USD', rolling: { 'requester/24h': 5_000_000 }, today: {} }),
    ).toBe(true);
    // No threshold for EUR and no default: never.
    expect(
      totalConditionHolds(condition, { currency: 'EUR', rolling: { 'requester/24h': 9e9 }, today: {} }),
    ).toBe(false);
    expect(totalConditionHolds(condition, undefined)).toBe(false);
  });

  it('refuses a zone that is not an IANA zone, and a total of nobody', () => {
    const base = 'actors: []\nrules: []\n';
    expect(() =>
      parsePolicyText(`${base}limits: { zone: Mars/Olympus, perRequester: { USD: 1 } }\n`, 'p.yaml'),
    ).toThrow(/IANA time zone/);
    // A cap that names no currency says nothing: refused, as an empty break-glass cap is.
    expect(() => parsePolicyText(`${base}limits: { zone: UTC, perRequester: {} }\n`, 'p.yaml')).toThrow(
      /limits\.perRequester.*needs at least one currency or "default"/,
    );
    expect(() =>
      parsePolicyText(
        'actors: []\nrules: [{ allow: [], when: { total: { of: someone, within: 24h, atLeast: { USD: 1 } } } }]\n',
        'p.yaml',
      ),
    ).toThrow(/of/);
  });
});
