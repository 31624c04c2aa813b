import type { ExecuteRequest, ExecutorDeps } from './execute-request.js';
import { keyUse } from './idempotency.js';
import type { Decision } from './policy/types.js';
import { refuseInvalid } from './refusal-audit.js';
import { approvalReplay, noteReplay } from './replay-audit.js';
import type { ExecuteResult } from './results.js';
import type { AnyTool } from './tool.js';

/** What an idempotency key already did: an answer to give instead of acting, or a repeat to run. */
export interface KeyReplay {
  /** The answer to this request, when the key already answered it (or cannot be used again). */
  answer?: ExecuteResult;
  /** The key was used before for this input: a repeat, not a new movement. */
  replay: boolean;
}

/**
 * Looks up what `req.idempotencyKey` already did for this input, before the call runs or opens an
 * approval: a key used for another input is refused; a key waiting for approval answers with that
 * approval; a key that ran directly answers with its first result (opening an approval for it now
 * would act a second time).
 */
export async function replayOfKey(
  deps: Pick<ExecutorDeps, 'storage' | 'approvals' | 'audit'>,
  call: { tool: AnyTool; input: Record<string, unknown>; req: ExecuteRequest; fingerprint: string },
  decision: Decision,
): Promise<KeyReplay> {
  const { tool, input, req, fingerprint } = call;
  const { actor, idempotencyKey: key } = req;
  if (key === undefined) return { replay: false };
  const refuse = async (message: string): Promise<KeyReplay> => ({
    answer: await refuseInvalid(deps.audit, tool, actor, input, message),
    replay: false,
  });
  const use = await keyUse(
    { storage: deps.storage, approvals: deps.approvals },
    { actor, tool, fingerprint, key },
  );
  if (use.conflict !== undefined) return refuse(use.conflict);
  // The key already waits for approval with this input: that approval is the answer, even if the
  // policy would now let the call run directly (running it too would act twice).
  const waiting = use.approvalId === undefined ? undefined : await deps.approvals?.get(use.approvalId);
  if (waiting !== undefined && decision.decision !== 'approval') {
    noteReplay(deps.audit, { tool, input, actor }, approvalReplay(waiting));
    const answer: ExecuteResult =
      waiting.state === 'succeeded'
        ? { status: 'ok', tool: tool.name, output: waiting.result ?? {}, requestId: waiting.requestId }
        : {
            status: 'pending_approval',
            tool: tool.name,
            approvalId: waiting.id,
            approval: waiting,
            joined: true,
          };
    return { answer, replay: use.replay };
  }
  // The key already ran directly, and the policy now wants approvers: its first result is the
  // answer; a run whose outcome is not known stays under its own request id, and asking approvers
  // needs another key.
  if (use.ran !== undefined && decision.decision === 'approval') {
    if (use.ran.result !== null) {
      noteReplay(
        deps.audit,
        { tool, input, actor },
        { decision: 'allow', outcome: 'ok', requestId: use.ran.requestId },
      );
      return { answer: use.ran.result, replay: use.replay };
    }
    return refuse(
      `idempotency key '${key}' was already used for a direct ${tool.name} of this input that did not succeed (request ${use.ran.requestId}); it now needs approval: ask with a new key`,
    );
  }
  return { replay: use.replay };
}
