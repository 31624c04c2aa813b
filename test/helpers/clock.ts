import type { Clock } from '../../src/core/clock.js';

/** A clock the test moves: time stands still until `advance` or `set`, which fire what fell due. */
export interface ManualClock extends Clock {
  /** Moves time forward and fires every timer that is then due, earliest first. */
  advance(ms: number): void;
  /** Moves time to `at` (never back) and fires what is due. */
  set(at: Date | string): void;
  /** Timers waiting to fire. */
  readonly waiting: number;
  /** Whether a timer waits to fire at `at` (ms since the epoch): someone is paused until then. */
  waitsUntil(at: number): boolean;
}

interface Timer {
  due: number;
  order: number;
  fire: () => void;
}

export function manualClock(start: Date | string | number = Date.now()): ManualClock {
  let nowMs = new Date(start).getTime();
  let order = 0;
  const timers = new Set<Timer>();

  const schedule = (ms: number, fire: () => void): Timer => {
    const timer = { due: nowMs + Math.max(ms, 0), order: order++, fire };
    timers.add(timer);
    // Due already (a zero pause): fired on the next turn, as a real timer would be.
    if (ms <= 0) setImmediate(fireDue);
    return timer;
  };

  function fireDue(): void {
    for (;;) {
      let next: Timer | undefined;
      for (const timer of timers) {
        if (timer.due > nowMs) continue;
        if (
          next === undefined ||
          timer.due < next.due ||
          (timer.due === next.due && timer.order < next.order)
        )
          next = timer;
      }
      if (next === undefined) return;
      timers.delete(next);
      next.fire();
    }
  }

  const clock: ManualClock = {
    now: () => new Date(nowMs),
    after(ms, fn) {
      const timer = schedule(ms, fn);
      return () => {
        timers.delete(timer);
      };
    },
    sleep: (ms) =>
      new Promise((resolve) => {
        schedule(ms, () => resolve());
      }),
    advance(ms) {
      nowMs += ms;
      fireDue();
    },
    set(at) {
      nowMs = Math.max(nowMs, new Date(at).getTime());
      fireDue();
    },
    get waiting() {
      return timers.size;
    },
    waitsUntil: (at) => [...timers].some((timer) => timer.due === at),
  };
  return clock;
}
