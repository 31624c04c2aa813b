import { outcomeUnknown } from '../errors.js';
import type { EngineContext } from './context.js';
import { keepRetrying, resendPauseMs, retryingOf } from './retrying.js';
import { claimSend, recordOutcome, releaseApproval, sendOnce } from './send.js';

/**
 * Re-sends an approval this process holds, in the background, while its re-send window is open
 * (retrying.ts): same request id, pauses backing off on the engine's clock, the lease renewed
 * meanwhile (`lease`, handed over by the caller). It ends when the outcome is known (recorded), the
 * window closes (`unresolved`), another process took the approval over, or the engine stops: then
 * the approval is let go, so another replica (its recovery) or the next start goes on with it in the
 * same window.
 */
export function resendInBackground(ctx: EngineContext, id: string, lease: { stop(): void }): void {
  let stopped = false;
  let wake: () => void = () => undefined;
  let cancelPause: () => void = () => undefined;
  // A stop that came while the loop read the row (after its check) ends the pause at once: it must
  // not wait for the next re-send's time, which can be a minute away.
  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (stopped) return resolve();
      wake = resolve;
      cancelPause = ctx.clock.after(ms, resolve);
    });

  const loop = async (): Promise<'stopped' | 'ended'> => {
    // Each re-send is due at a fixed time from the start, whenever the previous one came back.
    let due = ctx.now().getTime();
    for (let k = 0; ; k += 1) {
      if (stopped) return 'stopped';
      const row = await ctx.read((s) => s.approvals.byId(id));
      const window = row === undefined ? undefined : retryingOf(row);
      if (window === undefined) return 'ended';
      due = Math.min(due + resendPauseMs(k, ctx.resendDelays), Date.parse(window.until));
      await pause(Math.max(0, due - ctx.now().getTime()));
      if (stopped) return 'stopped';
      const claimed = await claimSend(ctx, id);
      if (typeof claimed === 'string') return 'ended';
      const outcome = await sendOnce(ctx, claimed);
      if (
        outcome.status === 'failed' &&
        outcomeUnknown(outcome.error) &&
        (await keepRetrying(ctx, id, outcome.error)) !== undefined
      )
        continue;
      await recordOutcome(ctx, { ...claimed, sends: claimed.sends + 1 }, outcome);
      return 'ended';
    }
  };

  const running = loop()
    .then(
      async (end) => {
        if (end === 'stopped') await releaseApproval(ctx, id);
      },
      async (error: unknown) => {
        ctx.deps.log?.error('re-sending an approval failed; it is let go for recovery', {
          approvalId: id,
          error,
        });
        await releaseApproval(ctx, id);
      },
    )
    .finally(() => {
      lease.stop();
      ctx.running.delete(id);
      ctx.resending.delete(id);
    });
  ctx.resending.set(id, {
    async stop() {
      stopped = true;
      cancelPause();
      wake();
      await running;
    },
  });
}

/** Stops every background re-send of this process (shutdown); each approval is let go. */
export async function stopResending(ctx: EngineContext): Promise<void> {
  await Promise.all([...ctx.resending.values()].map((resend) => resend.stop()));
}
