/**
 * Time as the core's timers see it (approval expiry, following sent money, re-send pauses): the
 * system's in production; tests pass one they move by hand, so a deadline passes without waiting
 * for it and the time the approvals read agrees with the time their timers fire at.
 */
export interface Clock {
  now(): Date;
  /**
   * Calls `fn` once, `ms` from now on this clock; the returned function cancels it. Background
   * work: it does not keep the process alive.
   */
  after(ms: number, fn: () => void): () => void;
  /** Resolves `ms` from now on this clock, keeping the process alive meanwhile (work in progress). */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms).unref();
    return () => clearTimeout(timer);
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
