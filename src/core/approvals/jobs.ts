import type { PeriodicJob } from '../schedule/scheduler.js';
import type { EngineContext } from './context.js';
import { recoverApprovals } from './execute.js';
import { settleDue } from './settle.js';

export const RECOVERY_JOB = 'approvals-recovery';
export const SETTLEMENT_JOB = 'approvals-settlement';

/** How often sent money's status is looked for in a long-running process. */
export const SETTLE_PASS_MS = 1_000;

/**
 * Takes over, without a restart, the approvals whose holder stopped renewing its lease (a replica
 * that died mid-payout), every half lease (at least a second) on the engine's clock. Every replica
 * runs it; each approval goes to the one whose compare-and-set on its lapsed lease wins
 * (`claimExecution`), so none is run twice. A failure is said (`onError`) and tried at the next run.
 */
export function recoveryJob(ctx: EngineContext, onError: (error: unknown) => void): PeriodicJob {
  const everyMs = Math.max(ctx.leaseMs / 2, 1000);
  return {
    name: RECOVERY_JOB,
    everyMs,
    // The process recovered what it found when it started (`createRuntime`).
    firstAfterMs: everyMs,
    run: () => recoverApprovals(ctx).then(() => undefined, onError),
  };
}

/**
 * Follows sent money to its final status: a pass over what is due (one indexed query), `passMs`
 * after the last one ended, so a slow service never has two passes running; resumed after a
 * restart from what the database says is due. Each look is claimed on the time it was due
 * (`claimSettlementLook`), so two replicas ask the service once.
 */
export function settlementJob(
  ctx: EngineContext,
  onError: (error: unknown) => void,
  passMs = SETTLE_PASS_MS,
): PeriodicJob {
  return {
    name: SETTLEMENT_JOB,
    everyMs: passMs,
    firstAfterMs: passMs,
    run: () => settleDue(ctx).then(() => undefined, onError),
  };
}
