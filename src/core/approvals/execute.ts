import { outcomeUnknown } from '../errors.js';
import { optional } from '../optional.js';
import { type RunOutcome, runTool } from '../run-tool.js';
import type { Tx } from '../store/index.js';
import type { Preview } from '../tool.js';
import { durableCheckpoints } from './checkpoints.js';
import type { EngineContext } from './context.js';
import { outcomeChanges, type SettlementStart } from './outcome.js';
import { firstLookDelayMs, recordSettled } from './settle.js';
import type { ApprovalRow } from './store.js';
import { requesterOf } from './view.js';

/**
 * Runs an approval this process holds (`executing`, our owner) and records the outcome. An outcome
 * that is unknown (timeout, 5xx…) is sent again with the same request id after each pause of
 * `resendDelays`; still unknown after that, or past `maxSends` across processes, it is `unresolved`.
 */
export async function executeApproval(
  ctx: EngineContext,
  id: string,
  onProgress?: (message: string) => void,
): Promise<void> {
  const lease = holdLease(ctx, id);
  try {
    for (let sent = 0; ; sent += 1) {
      // Read each time: the checkpoints of the previous send (the quote) are in the row.
      const row = await claimSend(ctx, id);
      if (row === 'not ours') return;
      if (row === 'too many') return;
      const outcome = await run(ctx, row, onProgress);
      const delay = ctx.resendDelays[sent];
      if (outcome.status === 'failed' && outcomeUnknown(outcome.error) && delay !== undefined) {
        onProgress?.(
          `no clear answer from the service (${outcome.error.message}); sending ${row.request_id} again in ${delay / 1000} s`,
        );
        await ctx.clock.sleep(delay);
        continue;
      }
      await record(ctx, { ...row, sends: row.sends + 1 }, outcome);
      return;
    }
  } finally {
    lease.stop();
  }
}

/**
 * Renews the lease of an approval this process executes, every third of its length, so a run
 * longer than the lease (re-sends, a slow service) is not taken over while it goes on. A renewal
 * that fails is said; the run stops at its next checkpoint if another process took it over.
 */
function holdLease(ctx: EngineContext, id: string): { stop(): void } {
  let renewing = false;
  const renew = async (): Promise<void> => {
    renewing = true;
    try {
      await ctx.transaction((tx) => tx.approvals.renewLease(id, ctx.owner, ctx.leaseUntil()));
    } catch (error) {
      ctx.deps.log?.warn('lease not renewed', { approvalId: id, error });
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(
    () => {
      if (!renewing) void renew();
    },
    Math.max(ctx.leaseMs / 3, 10),
  ).unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Counts the send about to happen, durably, while we still hold the approval. Past `maxSends` (a
 * process that keeps dying mid-send), it is `unresolved` instead: nothing is sent again.
 */
function claimSend(ctx: EngineContext, id: string): Promise<ApprovalRow | 'not ours' | 'too many'> {
  return ctx.transaction(async (tx) => {
    const row = await tx.approvals.byId(id);
    if (row === undefined || row.state !== 'executing' || row.owner !== ctx.owner) return 'not ours';
    if (row.sends >= ctx.maxSends) {
      const error = {
        kind: 'internal' as const,
        message: `sent ${row.sends} times as request ${row.request_id} without a known outcome; look it up at the service by that request id, then settle it with \`bankops approvals reconcile ${id}\``,
      };
      await tx.approvals.update(
        id,
        { state: 'executing', owner: ctx.owner },
        {
          state: 'unresolved',
          owner: null,
          lease_until: null,
          error_json: JSON.stringify(error),
          updated_at: ctx.nowIso(),
        },
      );
      await ctx.record(tx, id, 'unresolved', { detail: error.message });
      return 'too many';
    }
    await tx.approvals.update(
      id,
      { state: 'executing', owner: ctx.owner },
      { sends: row.sends + 1, lease_until: ctx.leaseUntil() },
    );
    return row;
  });
}

async function run(
  ctx: EngineContext,
  row: ApprovalRow,
  onProgress?: (message: string) => void,
): Promise<RunOutcome> {
  const tool = ctx.deps.registry.get(row.tool);
  if (tool === undefined) {
    return {
      status: 'failed',
      error: { message: `the tool ${row.tool} is not in this bankops`, kind: 'internal' },
    };
  }
  const parsed = tool.input.safeParse(JSON.parse(row.input_json));
  if (!parsed.success) {
    const message = `the stored input no longer fits ${tool.name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`;
    return { status: 'failed', error: { message, kind: 'internal' } };
  }
  const approved = row.preview_json === null ? undefined : (JSON.parse(row.preview_json) as Preview);
  return runTool(ctx.deps, {
    tool,
    input: parsed.data as Record<string, unknown>,
    actor: requesterOf(row),
    requestId: row.request_id,
    approvalId: row.id,
    ...optional('approved', approved),
    ...optional('onProgress', onProgress),
    checkpoints: durableCheckpoints(ctx, { id: row.id, checkpointsJson: row.checkpoints_json }),
  });
}

/** What sent money to follow, if the tool says its run sent some. */
function settlementOf(
  ctx: EngineContext,
  row: ApprovalRow,
  outcome: RunOutcome,
): SettlementStart | undefined {
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
async function record(ctx: EngineContext, row: ApprovalRow, outcome: RunOutcome): Promise<void> {
  const settlement = settlementOf(ctx, row, outcome);
  const { changes, kind, detail } = outcomeChanges(row, outcome, {
    ...ctx.settings(),
    secretFields: ctx.deps.registry.get(row.tool)?.secretFields ?? [],
    ...optional('settlement', settlement),
  });
  await ctx.transaction(async (tx: Tx) => {
    // Unchanged: our lease ran out and another process took the approval over; its outcome stands.
    if (!(await tx.approvals.update(row.id, { state: 'executing', owner: ctx.owner }, changes))) return;
    if (kind === 'requoted') {
      await ctx.audit(tx, {
        actor: requesterOf(row),
        tool: row.tool,
        input: ctx.auditInput(row.tool, JSON.parse(row.input_json)),
        event: 'requested',
        decision: 'approval_required',
        approvalId: row.id,
        requestId: changes.request_id ?? row.request_id,
        outcome: 'pending',
        error: `back to the approvers: ${detail ?? ''}`,
      });
    }
    await ctx.record(tx, row.id, kind, detail === undefined ? {} : { detail });
    // Sent money the service already called final in its first answer is settled at once.
    if (settlement !== undefined && settlement.settlement.outcome !== 'settling') {
      await recordSettled(ctx, tx, { ...row, ...changes } as ApprovalRow, settlement.settlement);
    }
  });
}

/** Lets go of an approval this process holds, best effort: `recover()` may then take it over. */
export async function releaseApproval(ctx: EngineContext, id: string): Promise<void> {
  try {
    await ctx.transaction((tx) =>
      tx.approvals.update(id, { state: 'executing', owner: ctx.owner }, { owner: null, lease_until: null }),
    );
  } catch {
    // The database refuses even this: the lease runs out in time, and recovery takes it then.
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
    const taken = await ctx.transaction((tx) =>
      tx.approvals.claimExecution(row.id, ctx.owner, ctx.leaseUntil(), ctx.nowIso()),
    );
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

export interface RecoveryTimer {
  stop(): Promise<void>;
}

/**
 * In a long-running process: takes over, without a restart, the approvals whose holder stopped
 * renewing its lease (a replica that died mid-payout), every half lease.
 */
export function startRecoveryTimer(ctx: EngineContext, onError: (error: unknown) => void): RecoveryTimer {
  let running: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      running ??= recoverApprovals(ctx)
        .then(() => undefined, onError)
        .finally(() => {
          running = undefined;
        });
    },
    Math.max(ctx.leaseMs / 2, 1000),
  ).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
