import type { ApprovalEngine } from './approvals/engine.js';
import type { ExecutionRow } from './executions.js';
import { optional } from './optional.js';
import type { Actor } from './policy/types.js';
import type { Storage } from './store/index.js';
import type { AnyTool } from './tool.js';

export interface KeyUse {
  /** Why the key cannot be used for this input; the call is invalid. */
  conflict?: string;
  /** A stored result of this input, or an approval of it: the answer asks nobody again. */
  replay: boolean;
  /** The approval this key already waits on (or ran through). */
  approvalId?: string;
  /** The direct run this key already made. */
  ran?: ExecutionRow;
}

/**
 * What an idempotency key already stands for, run directly (executions) or waiting for approval:
 * another input is a conflict; a stored result of this input is a replay, which asks nobody.
 * Keys are for tools that change something: a read with a key would replay a stale answer.
 */
export async function keyUse(
  stores: { storage: Storage; approvals: ApprovalEngine | undefined },
  call: { actor: Actor; tool: AnyTool; fingerprint: string; key: string },
): Promise<KeyUse> {
  const { actor, tool, fingerprint, key } = call;
  if (tool.hints.readOnly) {
    return {
      conflict: `${tool.name} only reads, and a read is not repeated with an idempotency key: call it without one`,
      replay: false,
    };
  }
  const ran = await stores.storage.read((s) => s.executions.get(actor.id, tool.name, key));
  const waits = await stores.approvals?.byIdempotencyKey(actor.id, tool.name, key);
  const used = `idempotency key '${key}' was already used for a different ${tool.name} input`;
  if (ran !== undefined && ran.fingerprint !== fingerprint) return { conflict: used, replay: false };
  if (waits !== undefined && waits.fingerprint !== fingerprint)
    return { conflict: `${used} (approval ${waits.id})`, replay: false };
  return {
    replay: ran?.result_json != null || waits !== undefined,
    ...(waits === undefined ? {} : { approvalId: waits.id }),
    ...optional('ran', ran),
  };
}
