import { outcomeUnknown } from '../errors.js';
import { optional } from '../optional.js';
import { type RunOutcome, runTool } from '../run-tool.js';
import type { Preview } from '../tool.js';
import { auditApproval } from './audit.js';
import { durableCheckpoints } from './checkpoints.js';
import type { EngineContext } from './context.js';
import { outcomeChanges, type SettlementStart } from './outcome.js';
import { executingHere, ownerIsGone } from './owner.js';
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
  executingHere.add(id);
  try {
    for (let sent = 0; ; sent += 1) {
      // Read each time: the checkpoints of the previous send (the quote) are in the row.
      const row = claimSend(ctx, id);
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
      record(ctx, { ...row, sends: row.sends + 1 }, outcome);
      return;
    }
  } finally {
    executingHere.delete(id);
  }
}

/**
 * Counts the send about to happen, durably, while we still hold the approval. Past `maxSends` (a
 * process that keeps dying mid-send), it is `unresolved` instead: nothing is sent again.
 */
function claimSend(ctx: EngineContext, id: string): ApprovalRow | 'not ours' | 'too many' {
  return ctx.transaction(() => {
    const row = ctx.store.byId(id);
    if (row === undefined || row.state !== 'executing' || row.owner !== ctx.owner) return 'not ours';
    if (row.sends >= ctx.maxSends) {
      const error = {
        kind: 'internal' as const,
        message: `sent ${row.sends} times as request ${row.request_id} without a known outcome; look it up at the service by that request id, then settle it with \`bankops approvals reconcile ${id}\``,
      };
      ctx.store.update(
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
      ctx.record(id, 'unresolved', { detail: error.message });
      return 'too many';
    }
    ctx.store.update(id, { state: 'executing', owner: ctx.owner }, { sends: row.sends + 1 });
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
    checkpoints: durableCheckpoints(ctx.store, {
      id: row.id,
      owner: ctx.owner,
      checkpointsJson: row.checkpoints_json,
    }),
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
function record(ctx: EngineContext, row: ApprovalRow, outcome: RunOutcome): void {
  const settlement = settlementOf(ctx, row, outcome);
  const { changes, kind, detail } = outcomeChanges(row, outcome, {
    ...ctx.settings(),
    secretFields: ctx.deps.registry.get(row.tool)?.secretFields ?? [],
    ...optional('settlement', settlement),
  });
  ctx.transaction(() => {
    // Unchanged: our lease ran out and another process took the approval over; its outcome stands.
    if (!ctx.store.update(row.id, { state: 'executing', owner: ctx.owner }, changes)) return;
    if (kind === 'requoted') {
      auditApproval(ctx.deps.audit, {
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
    ctx.record(row.id, kind, detail === undefined ? {} : { detail });
    // Sent money the service already called final in its first answer is settled at once.
    if (settlement !== undefined && settlement.settlement.outcome !== 'settling') {
      recordSettled(ctx, { ...row, ...changes } as ApprovalRow, settlement.settlement);
    }
  });
}

/** Lets go of an approval this process holds, best effort: `recover()` may then take it over. */
export function releaseApproval(ctx: EngineContext, id: string): void {
  try {
    ctx.transaction(() =>
      ctx.store.update(id, { state: 'executing', owner: ctx.owner }, { owner: null, lease_until: null }),
    );
  } catch {
    // The database refuses even this: the lease runs out in time, and recovery takes it then.
  }
}

/**
 * At start-up, and on demand: takes over every approval in `approved` or `executing` whose holder is
 * gone (one process wins), and executes it again with the same request id and recorded checkpoints,
 * so the service replays what it already did. `unresolved` ones are left to people.
 */
export async function recoverApprovals(ctx: EngineContext): Promise<number> {
  let finished = 0;
  const failures: unknown[] = [];
  for (const row of ctx.store.unfinished()) {
    if (!ownerIsGone(row, ctx.now())) continue;
    const taken = ctx.transaction(() =>
      ctx.store.update(
        row.id,
        { state: row.state, owner: row.owner },
        { state: 'executing', owner: ctx.owner, lease_until: ctx.leaseUntil(), updated_at: ctx.nowIso() },
      ),
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
