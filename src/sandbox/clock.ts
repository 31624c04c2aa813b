/**
 * The sandbox's clock: real time plus an offset that `POST /_sandbox/clock` moves forward.
 * Quotes, tokens and payout/conversion progress are all judged by it.
 */
export class SandboxClock {
  private offsetMs = 0;

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  reset(): void {
    this.offsetMs = 0;
  }

  /** Restores an offset saved by a previous process (persistent sandbox). */
  setOffsetSeconds(seconds: number): void {
    this.offsetMs = seconds * 1000;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }
}
