import { auditActor } from './actors.js';
import type { ApprovalView } from './approvals/types.js';
import type { AuditLog } from './audit/index.js';
import type { Actor } from './policy/types.js';
import { redact } from './redact.js';
import type { ExecuteResult } from './results.js';
import { secretsOf } from './run-tool.js';
import type { AnyTool } from './tool.js';

/** How a repeat was answered from an earlier call under the same idempotency key. */
export interface Replayed {
  /** `allow`: it ran directly the first time; `approval_required`: through an approval. */
  decision: 'allow' | 'approval_required';
  outcome: 'ok' | 'pending' | 'failed';
  /** What failed, for a repeat that joined a call in flight that failed. */
  error?: string | undefined;
  /** The first call's request id (its `executed` entry carries the same). */
  requestId?: string | undefined;
  approvalId?: string | undefined;
}

/**
 * The `requested` entry of a repeat answered with an earlier call's result or approval: nothing ran
 * again, and the entry says who asked again, with what, and which request answered them (joined to
 * the first run's entries by its request id). Written with the next reads' commit; not waited for.
 */
export function noteReplay(
  audit: AuditLog,
  call: { tool: AnyTool; input: Record<string, unknown>; actor: Actor },
  replayed: Replayed,
): void {
  const { tool, input, actor } = call;
  audit.note(
    {
      actor: auditActor(actor),
      frontEnd: actor.frontEnd,
      tool: tool.name,
      input: redact(input, tool.secretFields ?? []),
      decision: replayed.decision,
      event: 'requested',
      approvalId: replayed.approvalId ?? null,
      requestIds: replayed.requestId === undefined ? [] : [replayed.requestId],
      outcome: replayed.outcome,
      error: replayed.error ?? null,
    },
    { secrets: secretsOf(tool, input) },
  );
}

/** How a repeat answered with its key's approval was answered: that approval, as it stands. */
export function approvalReplay(approval: Pick<ApprovalView, 'id' | 'state' | 'requestId'>): Replayed {
  const base = {
    decision: 'approval_required' as const,
    requestId: approval.requestId,
    approvalId: approval.id,
  };
  switch (approval.state) {
    case 'succeeded':
      return { ...base, outcome: 'ok' };
    case 'rejected':
    case 'expired':
    case 'cancelled':
    case 'failed':
      return { ...base, outcome: 'failed', error: `approval ${approval.id} is ${approval.state}` };
    default:
      // Pending, approved, executing, or its outcome not known yet: still on its way.
      return { ...base, outcome: 'pending' };
  }
}

/** How a repeat that joined an identical call in flight was answered: that call's result. */
export function joinedReplay(result: ExecuteResult): Replayed {
  switch (result.status) {
    case 'ok':
      return { decision: 'allow', outcome: 'ok', requestId: result.requestId };
    case 'failed':
      return {
        decision: 'allow',
        outcome: 'failed',
        error: result.error.message,
        requestId: result.error.requestId,
      };
    case 'invalid':
      return { decision: 'allow', outcome: 'failed', error: result.message };
    case 'pending_approval':
      return { decision: 'allow', outcome: 'failed', error: result.status };
    default:
      return { decision: 'allow', outcome: 'failed', error: result.reason };
  }
}
