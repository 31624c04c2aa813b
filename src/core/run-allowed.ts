import { randomUUID } from 'node:crypto';
import { AuditBacklogFullError } from './audit/index.js';
import { cardsSeen } from './cards.js';
import type { ExecuteRequest, ExecutorDeps } from './executor.js';
import { keepResult, reserveKey } from './idempotency.js';
import { invalidRequest } from './input-check.js';
import type { Actor } from './policy/types.js';
import { redact } from './redact.js';
import { refuseInvalid } from './refusal-audit.js';
import { noteReplay } from './replay-audit.js';
import type { ExecuteResult } from './results.js';
import { runTool, secretsOf, toFailure } from './run-tool.js';
import type { AnyTool } from './tool.js';

/** What an allowed call needs of the executor's parts. */
export type AllowedDeps = ExecutorDeps;

/** A call the policy allowed, its input checked. */
export interface AllowedCall {
  tool: AnyTool;
  input: Record<string, unknown>;
  actor: Actor;
  /** Made whenever the call has an idempotency key. */
  fingerprint: string | undefined;
  req: ExecuteRequest;
}

/**
 * Runs a call the policy allowed: its idempotency key reserved (a repeat answers the first result),
 * a write's `requested` entry on record before anything is sent, the tool run, cards it saw
 * remembered, and a success kept under its key.
 */
export async function runAllowed(deps: AllowedDeps, call: AllowedCall): Promise<ExecuteResult> {
  const { tool, input, actor, fingerprint, req } = call;
  const key = req.idempotencyKey;
  let requestId: string = randomUUID();
  if (key !== undefined && fingerprint !== undefined) {
    const { previous, requestId: keyed } = await reserveKey(deps.storage, {
      actor,
      tool,
      fingerprint,
      key,
    });
    if (previous !== undefined && previous.fingerprint !== fingerprint) {
      const message = `idempotency key '${key}' was already used for a different ${tool.name} input`;
      return refuseInvalid(deps.audit, tool, actor, input, message);
    }
    if (previous?.result) {
      const first = previous.result;
      noteReplay(deps.audit, call, {
        decision: 'allow',
        outcome: 'ok',
        requestId: first.status === 'ok' ? first.requestId : previous.requestId,
      });
      return first;
    }
    requestId = keyed;
  }
  // A read is recorded once, by its outcome entry (actor, input, decision, result), which waits
  // for the database if it is away; when too many wait, the read is refused rather than run
  // unrecorded. A write also gets its `requested` entry first, so a crash mid-call still leaves
  // the request on record.
  if (tool.hints.readOnly && !deps.audit.accepting) {
    const error = toFailure(new AuditBacklogFullError(deps.audit.waiting), []);
    return { status: 'failed', tool: tool.name, error };
  }
  if (!tool.hints.readOnly) {
    await deps.audit.append(
      {
        actor: actor.id,
        frontEnd: actor.frontEnd,
        tool: tool.name,
        input: redact(input, tool.secretFields ?? []),
        decision: 'allow',
        event: 'requested',
        requestIds: [requestId],
      },
      { secrets: secretsOf(tool, input) },
    );
  }
  const outcome = await runTool(deps, {
    tool,
    input,
    actor,
    requestId,
    onProgress: req.onProgress,
    signal: req.signal,
  });
  if (outcome.status === 'ok') {
    const seen = cardsSeen(input, outcome.output);
    if (seen.length > 0) await deps.cards.remember(seen);
  }
  const result: ExecuteResult =
    outcome.status === 'ok'
      ? { status: 'ok', tool: tool.name, output: outcome.output, requestId }
      : (invalidRequest(tool.name, outcome.error) ?? {
          status: 'failed',
          tool: tool.name,
          error: outcome.error,
        });
  // Only a success is remembered: a failed call may be retried with the same key (and request id).
  if (key !== undefined && result.status === 'ok')
    await keepResult(deps.storage, { actor, tool, key }, result);
  return result;
}
