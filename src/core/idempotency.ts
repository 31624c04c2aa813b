import type { ApprovalEngine } from './approvals/engine.js';
import type { KeyedRun } from './executions.js';
import { keyedRequestId } from './fingerprint.js';
import { optional } from './optional.js';
import type { Actor } from './policy/types.js';
import { redact } from './redact.js';
import type { Registry } from './registry.js';
import type { ExecuteResult } from './results.js';
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
  ran?: KeyedRun;
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
    replay: (ran !== undefined && ran.result !== null) || waits !== undefined,
    ...optional('approvalId', waits?.id),
    ...optional('ran', ran),
  };
}

/**
 * Earlier versions hashed inputs holding a secret without a key: such a digest of a known input
 * gives its PIN away. They are forgotten (the composition root does it once at start); a retry
 * with their key is sent again under the same request id, which the service answers with its first
 * answer.
 */
export async function forgetUnkeyed(storage: Storage, registry: Registry): Promise<void> {
  const secretTools = registry
    .list()
    .filter((tool) => (tool.secretFields ?? []).some((f) => f in tool.input.shape));
  await storage.transaction((tx) => tx.executions.forgetUnkeyed(secretTools.map((tool) => tool.name)));
}

/**
 * Binds a key of a direct run to this input and its request id, unless it already stands for one:
 * read and bound in one transaction, so two processes with the same key agree on its input.
 */
export async function reserveKey(
  storage: Storage,
  call: { actor: Actor; tool: AnyTool; fingerprint: string; key: string },
): Promise<{ previous: KeyedRun | undefined; requestId: string }> {
  const { actor, tool, fingerprint, key } = call;
  const requestId = keyedRequestId(actor, tool.name, key);
  const previous = await storage.transaction(async (tx) => {
    const found = await tx.executions.get(actor.id, tool.name, key);
    if (found === undefined) await tx.executions.reserve(actor.id, tool.name, key, fingerprint, requestId);
    return found;
  });
  return { previous, requestId };
}

/**
 * Keeps the first success of a keyed run for its retries, redacted: a replay does not hand out a
 * secret (a card-details link) a second time.
 */
export async function keepResult(
  storage: Storage,
  call: { actor: Actor; tool: AnyTool; key: string },
  result: Extract<ExecuteResult, { status: 'ok' }>,
): Promise<void> {
  const { actor, tool, key } = call;
  const kept: ExecuteResult = {
    ...result,
    output: redact(result.output, tool.secretFields ?? []) as Record<string, unknown>,
  };
  await storage.transaction((tx) => tx.executions.finish(actor.id, tool.name, key, kept));
}
