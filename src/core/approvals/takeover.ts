import type { Approval } from './approval.js';

/**
 * A takeover: this process claimed an execution another holder had, after that holder's lease ran
 * out (it died, or stopped renewing). Said three ways, all by the taker: one log line, a feed event
 * (`taken_over`, whose detail `approvals show` prints), and a count in `/metrics`.
 */
export interface Takeover {
  approvalId: string;
  /** Who holds it now (`${hostname}:${pid}`). */
  by: string;
  /** Who held it before. */
  from: string;
  /** When the previous holder's lease ran out. */
  leaseEnded: string;
  /** How long it had been over when this process took it, in seconds. */
  lapsedSeconds: number;
}

/**
 * The takeover a claim of `before` by `owner` at `now` is, if it is one: an approval another holder
 * had and whose lease ran out. An approval nobody held (just approved, or let go on purpose) is
 * started, not taken over; one this process held was never lost.
 */
export function takeoverOf(before: Approval, owner: string, now: Date): Takeover | undefined {
  if (before.owner === null || before.owner === owner || before.leaseUntil === null) return undefined;
  const lapsedMs = Math.max(0, now.getTime() - Date.parse(before.leaseUntil));
  return {
    approvalId: before.id,
    by: owner,
    from: before.owner,
    leaseEnded: before.leaseUntil,
    lapsedSeconds: Math.round(lapsedMs / 1000),
  };
}

/** `replica b:12 after the lease of a:7 ran out (12 s before)`: the feed event's detail. */
export const takeoverWords = (t: Takeover): string =>
  `replica ${t.by} after the lease of ${t.from} ran out (${t.lapsedSeconds} s before)`;
