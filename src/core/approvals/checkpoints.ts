import { internalError } from '../errors.js';
import type { CheckpointStore } from '../run-tool.js';
import type { ApprovalStore } from './store.js';

/**
 * Checkpoints kept in the approval's row. Each `set` is committed (synchronous=FULL) before the tool
 * goes on, so a payout's quote is on disk before the payout is sent: a process that takes over
 * after a crash re-sends the same quote under the same request id, and the service replays its
 * first answer instead of paying twice.
 */
export function durableCheckpoints(
  store: ApprovalStore,
  approval: { id: string; owner: string; checkpointsJson: string },
): CheckpointStore {
  const values = JSON.parse(approval.checkpointsJson) as Record<string, unknown>;
  return {
    get: (key) => (Object.hasOwn(values, key) ? { value: values[key] } : undefined),
    set: (key, value) => {
      const next = { ...values, [key]: value };
      const saved = store.update(
        approval.id,
        { state: 'executing', owner: approval.owner },
        { checkpoints_json: JSON.stringify(next) },
      );
      // Another process took the approval over (our lease ran out): stop before calling the service.
      if (!saved) throw internalError(`approval ${approval.id} is no longer executing in this process`);
      values[key] = value;
    },
  };
}
