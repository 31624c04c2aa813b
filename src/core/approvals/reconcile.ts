import { internalError } from '../errors.js';
import { canApprove, isRequesterOf, personOf } from '../policy/actors.js';
import type { Actor } from '../policy/types.js';
import type { Approval } from './approval.js';
import type { EngineContext } from './context.js';
import { executeApproval } from './execute.js';
import { approverRolesOf } from './quorum.js';
import { type ApprovalActionResult, closedWords, type Reconciliation } from './types.js';
import { notFound, refused } from './vote.js';

/** Who may settle an unresolved approval: someone holding its approver role, not its requester. */
function mayReconcile(
  ctx: EngineContext,
  row: Approval,
  actor: Actor,
  looked: string | undefined,
): string | undefined {
  if (looked !== undefined && looked !== row.requestId)
    return `approval ${row.id} changed since you looked up ${looked}: it is now attempt ${row.attempt}, request ${row.requestId} (${row.state}); look it up again`;
  if (row.state !== 'unresolved')
    return `approval ${row.id} ${closedWords(row.state)}; only an unresolved one is reconciled`;
  const policy = ctx.deps.policy.current();
  if (isRequesterOf(policy, row, actor, personOf(policy, actor)))
    return `${actor.id} requested ${row.id}; another person holding the role ${row.approverRole} reconciles it`;
  if (!canApprove(policy, actor, approverRolesOf(row)))
    return `${actor.id} does not hold the role ${row.approverRole}`;
  return undefined;
}

/**
 * A person settles an `unresolved` approval after looking its request id up at the service:
 * `succeeded` (it happened), `failed` (it did not; a new request may be made), or `retry` (send it
 * once more with the same request id, which the service deduplicates). With `how.requestId`, only
 * the attempt the person looked up is settled.
 */
export async function reconcileApproval(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  how: Reconciliation,
): Promise<ApprovalActionResult> {
  const reason = how.reason?.trim() ?? '';
  if (how.outcome !== 'retry' && reason === '')
    return refused('say what you found at the service (--reason), for the audit log');
  const decided = await ctx.transaction(async (tx): Promise<ApprovalActionResult | 'retry'> => {
    const row = await tx.approvals.byId(id);
    if (row === undefined) return notFound(id);
    const refusal = mayReconcile(ctx, row, actor, how.requestId);
    if (refusal !== undefined)
      return { status: 'refused', reason: refusal, approval: await ctx.view(tx, row) };
    const person = personOf(ctx.deps.policy.current(), actor);
    const now = ctx.nowIso();
    const changed =
      how.outcome === 'retry'
        ? await tx.approvals.resend(id, ctx.owner, ctx.leaseUntil(), now)
        : await tx.approvals.reconcile(id, { state: how.outcome, decidedBy: actor.id, reason, at: now });
    if (!changed) throw internalError(`approval ${id} changed under a write lock`);
    // A retry keeps who asked for it and why, as a settlement does; the row's decision stays
    // empty, since the send that follows decides the outcome.
    const what =
      how.outcome === 'retry'
        ? `sent again with the same request id ${row.requestId} by ${actor.id}${reason === '' ? '' : `: ${reason}`}`
        : `marked ${how.outcome} by ${actor.id}: ${reason}`;
    const outcome = how.outcome === 'succeeded' ? 'ok' : how.outcome === 'failed' ? 'failed' : 'pending';
    await auditReconciled(ctx, tx, row, actor, outcome, what);
    await ctx.record(tx, id, how.outcome === 'retry' ? 'executing' : 'reconciled', {
      actor,
      person,
      detail: what,
    });
    return how.outcome === 'retry' ? 'retry' : { status: 'ok', approval: (await ctx.viewById(tx, id))! };
  });
  if (decided !== 'retry') return decided;
  await executeApproval(ctx, id);
  return { status: 'ok', approval: (await ctx.read((s) => ctx.viewById(s, id)))! };
}

type AuditEntry = Parameters<EngineContext['audit']>[1];

/** The audit entry of a person's settling of an approval (or a note on it, such as asking again). */
export function auditReconciled(
  ctx: EngineContext,
  tx: Parameters<EngineContext['audit']>[0],
  row: Approval,
  actor: Actor,
  outcome: NonNullable<AuditEntry['outcome']>,
  what: string,
): Promise<void> {
  return ctx.audit(tx, {
    actor,
    tool: row.tool,
    input: ctx.auditInput(row.tool, row.input),
    event: 'decided',
    decision: 'reconciled',
    approvalId: row.id,
    requestId: row.requestId,
    outcome,
    error: what,
  });
}
