import { outcomeUnknown } from '../errors.js';
import { SYSTEM_ACTOR } from './audit.js';
import type { EngineContext } from './context.js';
import { resendInBackground } from './resend.js';
import { keepRetrying } from './retrying.js';
import { claimSend, holdLease, recordOutcome, releaseApproval, sendOnce } from './send.js';
import { type Takeover, takeoverOf, takeoverWords } from './takeover.js';

/**
 * Runs an approval this process holds (`executing`, our owner) and records the outcome. An outcome
 * that is unknown (timeout, 5xx…) is sent again with the same request id: in a long-running process
 * (a re-send window), in the background until the window closes, the caller not waiting; otherwise
 * after each pause of `resendDelays`, the caller waiting. Still unknown after that, or past
 * `maxSends` across processes, it is `unresolved`.
 */
export async function executeApproval(
  ctx: EngineContext,
  id: string,
  onProgress?: (message: string) => void,
): Promise<void> {
  // This process runs it already (re-sending in the background): one run at a time.
  if (ctx.running.has(id)) return;
  ctx.running.add(id);
  const lease = holdLease(ctx, id);
  let handedOver = false;
  try {
    for (let sent = 0; ; sent += 1) {
      // Read each time: the checkpoints of the previous send (the quote) are in the row.
      const row = await claimSend(ctx, id);
      if (row === 'not ours') return;
      if (row === 'too many') return;
      const outcome = await sendOnce(ctx, row, onProgress);
      if (outcome.status === 'failed' && outcomeUnknown(outcome.error)) {
        if (ctx.resendWindowMs !== undefined) {
          const until = await keepRetrying(ctx, id, outcome.error);
          // Checked and handed over with no await between, so `stopBackground` either sees the
          // re-send and stops it, or this sees it closing and lets the approval go: another
          // replica's recovery, or the next start, re-sends it in the same window.
          if (until !== undefined && ctx.closing) {
            onProgress?.(
              `no clear answer from the service (${outcome.error.message}); this process is stopping, so ${row.requestId} is let go: another replica or the next start sends it again until ${until}`,
            );
            await releaseApproval(ctx, id);
            return;
          }
          if (until !== undefined) {
            onProgress?.(
              `no clear answer from the service (${outcome.error.message}); ${row.requestId} is sent again in the background until ${until}`,
            );
            resendInBackground(ctx, id, lease);
            handedOver = true;
            return;
          }
        } else {
          const delay = ctx.resendDelays[sent];
          if (delay !== undefined) {
            onProgress?.(
              `no clear answer from the service (${outcome.error.message}); sending ${row.requestId} again in ${delay / 1000} s`,
            );
            await ctx.clock.sleep(delay);
            continue;
          }
        }
      }
      await recordOutcome(ctx, { ...row, sends: row.sends + 1 }, outcome);
      return;
    }
  } finally {
    if (!handedOver) {
      lease.stop();
      ctx.running.delete(id);
    }
  }
}

/**
 * At start-up, and on demand: takes over every approval in `approved` or `executing` whose lease has
 * run out (one process wins the compare-and-set), and executes it again with the same request id
 * and recorded checkpoints, so the service replays what it already did. `unresolved` ones are left
 * to people.
 */
export async function recoverApprovals(ctx: EngineContext): Promise<number> {
  let finished = 0;
  const failures: unknown[] = [];
  for (const row of await ctx.read((s) => s.approvals.unfinished())) {
    // Ours and running here (its lease fell behind a clock moved by hand, or a slow renewal).
    if (ctx.running.has(row.id)) continue;
    const taken = await claimLapsed(ctx, row.id);
    if (!taken) continue;
    // One approval that cannot be finished now must not stop the others: it stays `executing`
    // under this owner's lease and is taken up again when the lease runs out or at the next start.
    try {
      await executeApproval(ctx, row.id);
      finished += 1;
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) {
    throw new AggregateError(failures, `${failures.length} approval(s) could not be recovered now`);
  }
  return finished;
}

/**
 * Claims an approval whose lease ran out (or that nobody holds) for this process; whether it won.
 * Taking it from another holder is said in the same transaction (a `taken_over` feed event), then in
 * one log line and to the metrics, on this process only.
 */
async function claimLapsed(ctx: EngineContext, id: string): Promise<boolean> {
  const claimed = await ctx.transaction(async (tx): Promise<{ takeover?: Takeover } | undefined> => {
    const before = await tx.approvals.byId(id);
    if (before === undefined) return undefined;
    if (!(await tx.approvals.claimExecution(id, ctx.owner, ctx.leaseUntil(), ctx.nowIso()))) return undefined;
    const takeover = takeoverOf(before, ctx.owner, ctx.now());
    if (takeover === undefined) return {};
    await ctx.record(tx, id, 'taken_over', { actor: SYSTEM_ACTOR, detail: takeoverWords(takeover) });
    return { takeover };
  });
  if (claimed?.takeover !== undefined) {
    const t = claimed.takeover;
    ctx.deps.log?.warn('execution taken over', {
      approvalId: t.approvalId,
      previousOwner: t.from,
      leaseEnded: t.leaseEnded,
      lapsedSeconds: t.lapsedSeconds,
      owner: t.by,
    });
    ctx.deps.onTakenOver?.(t);
  }
  return claimed !== undefined;
}
