import { optional } from '../optional.js';
import { type RunOutcome, runTool } from '../run-tool.js';
import type { Tx } from '../store/index.js';
import type { Approval } from './approval.js';
import { durableCheckpoints } from './checkpoints.js';
import type { EngineContext } from './context.js';
import { outcomeChanges, type SettlementStart } from './outcome.js';
import { withinWindow } from './retrying.js';
import { firstLookDelayMs, recordSettled } from './settle.js';

/**
 * One send of an approval this process holds, in steps the caller runs in order: count it durably
 * (`claimSend`), send it (`sendOnce`), record what came of it (`recordOutcome`); and the lease held
 * meanwhile (`holdLease`).
 */

/**
 * Renews the lease of an approval this process executes, every third of its length, so a run
 * longer than the lease (re-sends, a slow service) is not taken over while it goes on. A renewal
 * that fails is said; the run stops at its next checkpoint if another process took it over.
 */
export function holdLease(ctx: EngineContext, id: string): { stop(): void } {
  const every = Math.max(ctx.leaseMs / 3, 10);
  let stopped = false;
  let cancel: () => void = () => undefined;
  const renew = async (): Promise<void> => {
    try {
      await ctx.transaction((tx) => tx.approvals.renewLease(id, ctx.owner, ctx.leaseUntil()));
    } catch (error) {
      ctx.deps.log?.warn('lease not renewed', { approvalId: id, error });
    }
  };
  // On the engine's clock, as the lease's expiry is: a clock moved by hand renews it as it passes.
  const tick = (): void => {
    void renew().finally(() => {
      if (!stopped) cancel = ctx.clock.after(every, tick);
    });
  };
  cancel = ctx.clock.after(every, tick);
  return {
    stop: () => {
      stopped = true;
      cancel();
    },
  };
}

/**
 * Counts the send about to happen, durably, while we still hold the approval. Past `maxSends` (a
 * process that keeps dying mid-send), it is `unresolved` instead: nothing is sent again. Inside a
 * long-running process's re-send window the window is the bound, not the count.
 */
export function claimSend(ctx: EngineContext, id: string): Promise<Approval | 'not ours' | 'too many'> {
  return ctx.transaction(async (tx) => {
    const row = await tx.approvals.byId(id);
    if (row === undefined || row.state !== 'executing' || row.owner !== ctx.owner) return 'not ours';
    if (row.sends >= ctx.maxSends && !withinWindow(ctx, row)) {
      const error = {
        kind: 'internal' as const,
        message: `sent ${row.sends} times as request ${row.requestId} without a known outcome; look it up at the service by that request id, then settle it with \`bankops approvals reconcile ${id}\``,
      };
      await tx.approvals.finish(id, ctx.owner, { state: 'unresolved', error, at: ctx.nowIso() });
      await ctx.record(tx, id, 'unresolved', { detail: error.message });
      return 'too many';
    }
    await tx.approvals.countSend(id, ctx.owner, ctx.leaseUntil());
    return row;
  });
}

export async function sendOnce(
  ctx: EngineContext,
  row: Approval,
  onProgress?: (message: string) => void,
): Promise<RunOutcome> {
  const tool = ctx.deps.registry.get(row.tool);
  if (tool === undefined) {
    return {
      status: 'failed',
      error: { message: `the tool ${row.tool} is not in this bankops`, kind: 'internal' },
    };
  }
  const parsed = tool.input.safeParse(row.input);
  if (!parsed.success) {
    const message = `the stored input no longer fits ${tool.name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`;
    return { status: 'failed', error: { message, kind: 'internal' } };
  }
  return runTool(ctx.deps, {
    tool,
    input: parsed.data as Record<string, unknown>,
    actor: row.requester,
    person: row.requesterPerson,
    requestId: row.requestId,
    approvalId: row.id,
    ...optional('approved', row.preview ?? undefined),
    ...optional('onProgress', onProgress),
    checkpoints: durableCheckpoints(ctx, row),
  });
}

/** What sent money to follow, if the tool says its run sent some. */
function settlementOf(ctx: EngineContext, row: Approval, outcome: RunOutcome): SettlementStart | undefined {
  if (outcome.status !== 'ok') return undefined;
  const sent = ctx.deps.registry.get(row.tool)?.settlement?.(outcome.output);
  if (sent === undefined) return undefined;
  const now = ctx.now();
  return {
    settlement: { ...sent, checkedAt: now.toISOString() },
    firstLookAt: new Date(now.getTime() + firstLookDelayMs()).toISOString(),
  };
}

/** Records the outcome, if this process still holds the approval. */
export async function recordOutcome(ctx: EngineContext, row: Approval, outcome: RunOutcome): Promise<void> {
  const settlement = settlementOf(ctx, row, outcome);
  const { finish, kind, detail } = outcomeChanges(row, outcome, {
    ...ctx.settings(),
    secretFields: ctx.deps.registry.get(row.tool)?.secretFields ?? [],
    ...optional('settlement', settlement),
  });
  await ctx.transaction(async (tx: Tx) => {
    // Unchanged: our lease ran out and another process took the approval over; its outcome stands.
    if (!(await tx.approvals.finish(row.id, ctx.owner, finish))) return;
    if (finish.state === 'pending') {
      await ctx.audit(tx, {
        actor: row.requester,
        tool: row.tool,
        input: ctx.auditInput(row.tool, row.input),
        event: 'requested',
        decision: 'approval_required',
        approvalId: row.id,
        requestId: finish.requote.requestId,
        outcome: 'pending',
        error: `back to the approvers: ${detail ?? ''}`,
      });
    }
    await ctx.record(tx, row.id, kind, detail === undefined ? {} : { detail });
    // Sent money the service already called final in its first answer is settled at once.
    if (settlement !== undefined && settlement.settlement.outcome !== 'settling') {
      await recordSettled(ctx, tx, row, settlement.settlement);
    }
  });
}

/** Lets go of an approval this process holds, best effort: `recover()` may then take it over. */
export async function releaseApproval(ctx: EngineContext, id: string): Promise<void> {
  try {
    await ctx.transaction((tx) => tx.approvals.release(id, ctx.owner));
  } catch {
    // The database refuses even this: the lease runs out in time, and recovery takes it then.
  }
}
