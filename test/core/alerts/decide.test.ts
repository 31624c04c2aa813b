import { describe, expect, it } from 'vitest';
import { decide, type Reading } from '../../../src/core/alerts/index.js';
import type { AlertLevel } from '../../../src/core/alerts/store.js';

const at = (minor: number): Reading => ({ ok: true, minor });
const failed: Reading = { ok: false, error: 'service unavailable' };

/** Runs readings through `decide` from a new alert at 100.00 and returns what each posted. */
function walk(readings: readonly Reading[]): string[][] {
  let state = { level: 'unknown' as AlertLevel, readFailing: false, thresholdMinor: 10_000 };
  return readings.map((reading) => {
    const next = decide(state, reading);
    state = { ...state, level: next.level, readFailing: next.readFailing };
    return next.posts;
  });
}

describe('decide: what a balance alert posts after each reading', () => {
  it('posts once on the way down and once on the way up, never while it stays', () => {
    expect(walk([at(20_000), at(9_999), at(5_000), at(9_999), at(10_000), at(50_000), at(9_000)])).toEqual([
      [],
      ['below'],
      [],
      [],
      ['recovered'],
      [],
      ['below'],
    ]);
  });

  it('says at the first reading that a new alert is already under', () => {
    expect(walk([at(1), at(1)])).toEqual([['below'], []]);
  });

  it('says a failed read once, posts no crossing meanwhile, and says when reads work again', () => {
    expect(walk([at(20_000), failed, failed, at(20_000), failed, at(5_000), at(5_000)])).toEqual([
      [],
      ['read-failed'],
      [],
      ['read-ok'],
      ['read-failed'],
      ['read-ok', 'below'],
      [],
    ]);
  });

  it('keeps the level through failed reads: a balance still under after an outage is not posted again', () => {
    expect(walk([at(5_000), failed, at(5_000)])).toEqual([['below'], ['read-failed'], ['read-ok']]);
  });
});
