import { internalError } from '../errors.js';
import type { CheckpointStore } from '../run-tool.js';
import type { EngineContext } from './context.js';

/**
 * Checkpoints kept in the approval's row. Each `set` is committed (durably) before the tool goes
 * on, so a payout's quote is on disk before the payout is sent: a process that takes over after a
 * crash re-sends the same quote under the same request id, and the service replays its first
 * answer instead of paying twice.
 */
export function durableCheckpoints(
  ctx: EngineContext,
  approval: { id: string; checkpoints: Readonly<Record<string, unknown>> },
): CheckpointStore {
  const values: Record<string, unknown> = { ...approval.checkpoints };
  return {
    get: (key) => (Object.hasOwn(values, key) ? { value: values[key] } : undefined),
    set: async (key, value) => {
      const next = { ...values, [key]: value };
      const saved = await ctx.transaction((tx) => tx.approvals.saveCheckpoints(approval.id, ctx.owner, next));
      // Another process took the approval over (our lease ran out): stop before calling the service.
      if (!saved) throw internalError(`approval ${approval.id} is no longer executing in this process`);
      values[key] = value;
    },
  };
}
