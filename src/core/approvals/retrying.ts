import type { Approval, StoredFailure } from './approval.js';
import type { EngineContext } from './context.js';
import type { Failure } from './view-schema.js';

/**
 * The re-send window of a long-running process (DESIGN decision 14, docs/approvals.md "When the
 * service does not answer"): an execution whose outcome stays unknown keeps its approval
 * `executing` and is sent again with the same request id, backing off, until the window closes;
 * only then is it `unresolved`. The window is kept in the approval's error, beside the last error
 * seen, so a replica that takes the approval over keeps the window instead of opening a new one.
 */
/** The window an executing approval is re-sent in, if one is open. */
export function retryingOf(row: Approval): { since: string; until: string } | undefined {
  if (row.state !== 'executing' || row.error === null) return undefined;
  const { retryingSince, retryingUntil } = row.error;
  return retryingSince === undefined || retryingUntil === undefined
    ? undefined
    : { since: retryingSince, until: retryingUntil };
}

/** This process re-sends in a window, and the approval's window is still open (its last send is at its end). */
export function withinWindow(ctx: EngineContext, row: Approval): boolean {
  const window = retryingOf(row);
  return ctx.resendWindowMs !== undefined && window !== undefined && ctx.nowIso() <= window.until;
}

/** The longest pause between two background re-sends. */
export const MAX_RESEND_PAUSE_MS = 60_000;

/**
 * The pause before the `k`-th background re-send (from 0): the configured short pauses first, then
 * doubling from the last of them (at least 1 s), never more than a minute. No jitter: one replica
 * re-sends an approval (it holds the lease), so there is no crowd to spread.
 */
export function resendPauseMs(k: number, delays: readonly number[]): number {
  const given = delays[k];
  if (given !== undefined) return given;
  const last = Math.max(delays.at(-1) ?? 1000, 1000);
  return Math.min(MAX_RESEND_PAUSE_MS, last * 2 ** (k - delays.length + 1));
}

/**
 * The outcome of a send stayed unknown: opens the window (the first time: a `retrying` event, which
 * front ends show), or notes the last error in it. Returns when the window closes, or undefined when
 * it has closed already or this process no longer holds the approval: the caller records the
 * outcome (`unresolved`) instead.
 */
export function keepRetrying(ctx: EngineContext, id: string, error: Failure): Promise<string | undefined> {
  const windowMs = ctx.resendWindowMs;
  if (windowMs === undefined) return Promise.resolve(undefined);
  return ctx.transaction(async (tx) => {
    const row = await tx.approvals.byId(id);
    if (row === undefined || row.state !== 'executing' || row.owner !== ctx.owner) return undefined;
    const now = ctx.now();
    const open = retryingOf(row);
    const window = open ?? {
      since: now.toISOString(),
      until: new Date(now.getTime() + windowMs).toISOString(),
    };
    if (now.toISOString() >= window.until) return undefined;
    const kept: StoredFailure = { ...error, retryingSince: window.since, retryingUntil: window.until };
    await tx.approvals.noteRetrying(id, ctx.owner, kept, ctx.leaseUntil());
    if (open === undefined) {
      await ctx.record(tx, id, 'retrying', {
        detail: `the service did not answer (${error.message}); request ${row.requestId} is sent again until ${window.until}`,
      });
    }
    return window.until;
  });
}
