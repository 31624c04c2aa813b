import { auditApproval, SYSTEM_ACTOR } from './audit.js';
import type { EngineContext } from './context.js';
import type { ApprovalRow } from './store.js';

/** pending → expired, inside the caller's transaction, with its audit entry and feed event. */
function expire(ctx: EngineContext, row: ApprovalRow): ApprovalRow {
  const reason = `no quorum of ${row.required_approvers} before ${row.expires_at}`;
  const changes = {
    state: 'expired' as const,
    decided_by: SYSTEM_ACTOR.id,
    decision_reason: reason,
    updated_at: ctx.nowIso(),
  };
  if (!ctx.store.update(row.id, { state: 'pending' }, changes)) return ctx.store.byId(row.id)!;
  auditApproval(ctx.deps.audit, {
    actor: SYSTEM_ACTOR,
    tool: row.tool,
    input: ctx.auditInput(row.tool, JSON.parse(row.input_json)),
    event: 'decided',
    decision: 'expired',
    approvalId: row.id,
    requestId: row.request_id,
    outcome: 'failed',
    error: `expired: ${reason}`,
  });
  ctx.record(row.id, 'expired', { actor: SYSTEM_ACTOR, detail: reason });
  return ctx.store.byId(row.id)!;
}

/** The row, expired first if its time is up (inside the caller's transaction). */
export function currentRow(ctx: EngineContext, id: string): ApprovalRow | undefined {
  const row = ctx.store.byId(id);
  if (row === undefined || row.state !== 'pending' || row.expires_at > ctx.nowIso()) return row;
  return expire(ctx, row);
}

/**
 * Marks every pending approval past its deadline `expired`, each in its own transaction (one that
 * cannot be written does not hold the others back); returns how many.
 */
export function expireDue(ctx: EngineContext): number {
  // Read first: the write lock is only taken when something is due.
  let expired = 0;
  for (const row of ctx.store.pendingPast(ctx.nowIso())) {
    ctx.transaction(() => {
      const current = ctx.store.byId(row.id);
      if (current?.state === 'pending' && current.expires_at <= ctx.nowIso()) {
        expire(ctx, current);
        expired += 1;
      }
    });
  }
  return expired;
}

export interface ExpiryTimer {
  stop(): void;
}

/** Longest wait between looks: approvals opened by other processes are seen within this. */
const MAX_WAIT_MS = 1000;

/**
 * Expires approvals at their deadline in a long-running process, without anyone reading them: a
 * timer set to the next deadline (at most a second away, so approvals other processes open are
 * seen), re-armed by every change this process makes.
 */
export function startExpiryTimer(ctx: EngineContext, onError: (error: unknown) => void): ExpiryTimer {
  let cancel = (): void => {};
  let stopped = false;
  const arm = (): void => {
    if (stopped) return;
    cancel();
    const next = ctx.store.nextExpiry();
    const wait = next === undefined ? MAX_WAIT_MS : Date.parse(next) - ctx.now().getTime();
    cancel = ctx.clock.after(Math.min(Math.max(wait, 0), MAX_WAIT_MS), tick);
  };
  const tick = (): void => {
    try {
      expireDue(ctx);
    } catch (error) {
      // A database locked past its busy timeout: said, and tried again a second later, not at once.
      onError(error);
      cancel = ctx.clock.after(MAX_WAIT_MS, tick);
      return;
    }
    arm();
  };
  const unsubscribe = ctx.onEvent((event) => {
    if (event.kind === 'opened' || event.kind === 'requoted') arm();
  });
  arm();
  return {
    stop() {
      stopped = true;
      unsubscribe();
      cancel();
    },
  };
}
