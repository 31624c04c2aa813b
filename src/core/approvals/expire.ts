import type { Tx } from '../store/index.js';
import type { Approval } from './approval.js';
import { SYSTEM_ACTOR } from './audit.js';
import type { EngineContext } from './context.js';

/** pending → expired, inside the caller's transaction, with its audit entry and feed event. */
async function expire(ctx: EngineContext, tx: Tx, row: Approval): Promise<Approval> {
  const reason = `no quorum of ${row.requiredApprovers} before ${row.expiresAt}`;
  const closing = { state: 'expired' as const, decidedBy: SYSTEM_ACTOR.id, reason, at: ctx.nowIso() };
  if (!(await tx.approvals.close(row.id, closing))) return (await tx.approvals.byId(row.id))!;
  await ctx.audit(tx, {
    actor: SYSTEM_ACTOR,
    tool: row.tool,
    input: ctx.auditInput(row.tool, row.input),
    event: 'decided',
    decision: 'expired',
    approvalId: row.id,
    requestId: row.requestId,
    outcome: 'failed',
    error: `expired: ${reason}`,
  });
  await ctx.record(tx, row.id, 'expired', { actor: SYSTEM_ACTOR, detail: reason });
  return (await tx.approvals.byId(row.id))!;
}

/** The row, expired first if its time is up (inside the caller's transaction). */
export async function currentRow(ctx: EngineContext, tx: Tx, id: string): Promise<Approval | undefined> {
  const row = await tx.approvals.byId(id);
  if (row === undefined || row.state !== 'pending' || row.expiresAt > ctx.nowIso()) return row;
  return expire(ctx, tx, row);
}

/**
 * Marks every pending approval past its deadline `expired`, each in its own transaction (one that
 * cannot be written does not hold the others back); returns how many.
 */
export async function expireDue(ctx: EngineContext): Promise<number> {
  // Read first: the write lock is only taken when something is due.
  let expired = 0;
  for (const row of await ctx.read((s) => s.approvals.pendingPast(ctx.nowIso()))) {
    await ctx.transaction(async (tx) => {
      const current = await tx.approvals.byId(row.id);
      if (current?.state === 'pending' && current.expiresAt <= ctx.nowIso()) {
        await expire(ctx, tx, current);
        expired += 1;
      }
    });
  }
  return expired;
}

export interface ExpiryTimer {
  /** Resolves once a pass in progress has ended. */
  stop(): Promise<void>;
}

/** Longest wait between looks: approvals opened by other processes are seen within this. */
const MAX_WAIT_MS = 1000;

/**
 * Expires approvals at their deadline in a long-running process, without anyone reading them: a
 * timer set to the next deadline (at most a second away, so approvals other processes open are
 * seen), re-armed by every change this process makes.
 */
export function startExpiryTimer(
  ctx: EngineContext,
  onError: (error: unknown) => void,
  onAnswered: () => void = () => {},
): ExpiryTimer {
  let cancel = (): void => {};
  let stopped = false;
  /** The latest arming wins: an earlier one that reads the next deadline later sets nothing. */
  let generation = 0;
  let running: Promise<void> | undefined;
  const later = (wait: number): void => {
    cancel();
    cancel = ctx.clock.after(Math.min(Math.max(wait, 0), MAX_WAIT_MS), tick);
  };
  const arm = async (): Promise<void> => {
    if (stopped) return;
    const mine = ++generation;
    const next = await ctx.read((s) => s.approvals.nextExpiry());
    // The database answered this pass (a heartbeat at least every second): an outage is over.
    onAnswered();
    if (stopped || mine !== generation) return;
    later(next === undefined ? MAX_WAIT_MS : Date.parse(next) - ctx.now().getTime());
  };
  const armOrRetry = (): void => {
    running = arm().catch((error: unknown) => {
      onError(error);
      if (!stopped) later(MAX_WAIT_MS);
    });
  };
  function tick(): void {
    running = expireDue(ctx).then(
      () => armOrRetry(),
      (error: unknown) => {
        // A database locked past its busy timeout: said, and tried again a second later, not at once.
        onError(error);
        if (!stopped) later(MAX_WAIT_MS);
      },
    );
  }
  const unsubscribe = ctx.onEvent((event) => {
    if (event.kind === 'opened' || event.kind === 'requoted') armOrRetry();
  });
  armOrRetry();
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      cancel();
      while (running !== undefined) {
        const current = running;
        await current;
        if (running === current) break;
      }
      cancel();
    },
  };
}
