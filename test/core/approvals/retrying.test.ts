import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/app/config.js';
import { MAX_RESEND_PAUSE_MS, resendPauseMs } from '../../../src/core/approvals/retrying.js';

const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('BANKOPS_RESEND_WINDOW', () => {
  it('is 10 minutes unless set; takes ms, s, m and h; 0 turns it off', () => {
    expect(loadConfig({}).resendWindowMs).toBe(600_000);
    expect(loadConfig({ BANKOPS_RESEND_WINDOW: '90s' }).resendWindowMs).toBe(90_000);
    expect(loadConfig({ BANKOPS_RESEND_WINDOW: '10m' }).resendWindowMs).toBe(600_000);
    expect(loadConfig({ BANKOPS_RESEND_WINDOW: ' 2h ' }).resendWindowMs).toBe(7_200_000);
    expect(loadConfig({ BANKOPS_RESEND_WINDOW: '1500ms' }).resendWindowMs).toBe(1500);
    expect(loadConfig({ BANKOPS_RESEND_WINDOW: '0' }).resendWindowMs).toBe(0);
  });

  it('refuses anything else, naming the variable and what it takes', () => {
    for (const bad of ['10', 'ten minutes', '10 m', '-5m', '1d', '25h', '1.5m']) {
      expect(problemsOf({ BANKOPS_RESEND_WINDOW: bad })).toEqual([
        expect.stringMatching(/^BANKOPS_RESEND_WINDOW: must be a duration such as 10m, 90s or 1h/),
      ]);
    }
  });
});

describe('the pauses between background re-sends', () => {
  it('start with the short ones, then double, never more than a minute', () => {
    const pauses = Array.from({ length: 10 }, (_, k) => resendPauseMs(k, [1000, 4000]));
    expect(pauses).toEqual([1000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000, 60_000]);
    expect(resendPauseMs(0, [])).toBe(2000);
    expect(resendPauseMs(500, [1000])).toBe(MAX_RESEND_PAUSE_MS);
  });
});
