import { describe, expect, it } from 'vitest';
import { backgroundErrorReporter, UNREACHABLE_EVERY_MS } from '../../src/app/background-errors.js';
import { createLogger } from '../../src/core/log.js';
import { databaseUnreachable } from '../../src/core/store/postgres/errors.js';

/** The reporter over a real logger whose lines are kept, and a clock the test moves. */
function reporter() {
  const lines: Record<string, unknown>[] = [];
  let now = 1_000_000;
  const reporter = backgroundErrorReporter(
    createLogger('info', (line) => lines.push(JSON.parse(line) as Record<string, unknown>)),
    () => now,
  );
  return {
    lines,
    report: reporter.failed,
    answered: reporter.answered,
    advance: (ms: number) => (now += ms),
  };
}

const unreachable = () =>
  databaseUnreachable(
    '127.0.0.1:5999/bankops',
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  );

describe("approvals' background failures in serve's log", () => {
  it('says once that the database cannot be reached, then once a minute with the attempts since', () => {
    const { lines, report, advance } = reporter();
    report(unreachable());
    // The timers try again every few hundred milliseconds during the outage.
    for (let i = 0; i < 100; i += 1) {
      advance(500);
      report(unreachable());
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      message: 'approvals background work waits for the database; it goes on when the database is back',
    });
    expect(String(lines[0]?.error)).toContain('cannot reach its database at 127.0.0.1:5999/bankops');
    expect(JSON.stringify(lines[0])).not.toContain('stack');

    advance(UNREACHABLE_EVERY_MS - 100 * 500);
    report(unreachable());
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 'warn',
      message: 'approvals background work still waits for the database',
      failedAttempts: 101,
    });
  });

  it('logs any other failure in full, at once', () => {
    const { lines, report } = reporter();
    report(unreachable());
    report(new TypeError('x is not a function'));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 'error',
      message: 'approvals background work failed; it goes on',
      error: { name: 'TypeError', message: 'x is not a function' },
    });
    expect(JSON.stringify(lines[1]?.error)).toContain('"stack":"TypeError');
  });

  it('says a new outage at once after a quiet minute', () => {
    const { lines, report, advance } = reporter();
    report(unreachable());
    advance(UNREACHABLE_EVERY_MS + 1);
    report(unreachable());
    expect(lines.map((line) => line.message)).toEqual([
      'approvals background work waits for the database; it goes on when the database is back',
      'approvals background work waits for the database; it goes on when the database is back',
    ]);
  });

  it('says once when the database answers again, and a second outage right after afresh', () => {
    const { lines, report, answered, advance } = reporter();
    answered();
    expect(lines).toEqual([]);
    report(unreachable());
    for (let i = 0; i < 39; i += 1) {
      advance(500);
      report(unreachable());
    }
    // A connection that flaps stays one outage: no line for a pass that answers between failures.
    for (let i = 0; i < 20; i += 1) {
      advance(500);
      answered();
      advance(500);
      report(unreachable());
    }
    // Answering for 10 s: over, said once.
    for (let i = 0; i <= 20; i += 1) {
      advance(500);
      answered();
    }
    advance(1_000);
    report(unreachable());
    expect(lines.map((line) => [line.level, line.message, line.failedAttempts])).toEqual([
      [
        'warn',
        'approvals background work waits for the database; it goes on when the database is back',
        undefined,
      ],
      ['info', 'approvals background work goes on: the database answers again', 60],
      [
        'warn',
        'approvals background work waits for the database; it goes on when the database is back',
        undefined,
      ],
    ]);
  });
});
