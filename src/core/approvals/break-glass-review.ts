import { internalError } from '../errors.js';
import { checkApprover, isRequesterOf, personOf } from '../policy/actors.js';
import type { Policy } from '../policy/schema.js';
import type { Actor } from '../policy/types.js';
import type { Tx } from '../store/index.js';
import type { Approval } from './approval.js';
import { reasonProblem } from './break-glass-reason.js';
import type { BreakGlassReview } from './break-glass-store.js';
import type { EngineContext } from './context.js';

/**
 * One person closes a break-glass review: a holder of its role, never the person who broke the
 * glass nor the approval's requester, each person once, with a reason. Closed once `needed`
 * distinct people did. A refused close is audited (`decided/refused`), like a refused vote.
 */
export async function closeReview(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  reason: string,
): Promise<{ status: 'ok'; review: BreakGlassReview } | { status: 'refused' | 'not_found'; reason: string }> {
  const why = reason.trim();
  if (why === '') return { status: 'refused', reason: 'closing a review needs a reason, for the audit log' };
  const bad = reasonProblem(why, (text) => ctx.deps.audit.sanitized(text));
  if (bad !== undefined) return { status: 'refused', reason: bad };
  const policy = ctx.deps.policy.current();
  const person = personOf(policy, actor);
  return ctx.transaction(async (tx) => {
    const review = await tx.breakGlass.byApproval(id);
    const row = await tx.approvals.byId(id);
    if (review === undefined || row === undefined)
      return { status: 'not_found' as const, reason: `no break-glass review of ${id}` };
    const refusal = closeRefusal(review, row, actor, person, policy);
    if (refusal !== undefined) {
      // On record like every refused decision: who tried to close which review, and why not.
      await auditRefused(ctx, tx, row, actor, refusal);
      return { status: 'refused' as const, reason: refusal };
    }
    const at = ctx.nowIso();
    const closers = [...review.closers, { person, actorId: actor.id, reason: why, at }];
    const closed = { ...review, closers, ...(closers.length >= review.needed ? { closedAt: at } : {}) };
    if (!(await tx.breakGlass.update(closed))) throw internalError(`review ${id} changed under a write lock`);
    await auditClose(ctx, tx, row, actor, person, why);
    return { status: 'ok' as const, review: closed };
  });
}

function closeRefusal(
  review: BreakGlassReview,
  row: Approval,
  actor: Actor,
  person: string,
  policy: Policy,
): string | undefined {
  if (review.closedAt !== undefined)
    return `the break-glass review of ${review.approvalId} is closed already`;
  if (person === review.person || actor.id === review.actorId)
    return `${person} broke the glass on ${review.approvalId}; its review is closed by others`;
  // Reviewed by people other than the requester too, under any of their identities (as break-glass
  // itself is never by the requester).
  if (isRequesterOf(policy, row, actor, person))
    return `${person} requested ${review.approvalId}; its break-glass review is closed by others`;
  const check = checkApprover(policy, {
    approver: actor,
    requester: { id: review.actorId, frontEnd: 'cli' },
    requesterPerson: review.person,
    approverRole: review.role,
  });
  if (!check.ok)
    return `closing a break-glass review needs role ${review.role}; ${actor.id} does not hold it`;
  if (review.closers.some((c) => c.person === person || c.actorId === actor.id))
    return `${person} already closed their part of the review of ${review.approvalId}; ${review.needed} distinct people close it`;
  return undefined;
}

function auditRefused(ctx: EngineContext, tx: Tx, row: Approval, actor: Actor, refusal: string) {
  return ctx.audit(tx, {
    actor,
    tool: row.tool,
    input: ctx.auditInput(row.tool, row.input),
    event: 'decided',
    decision: 'refused',
    approvalId: row.id,
    requestId: row.requestId,
    outcome: 'failed',
    error: `break-glass review close refused: ${refusal}`,
  });
}

function auditClose(ctx: EngineContext, tx: Tx, row: Approval, actor: Actor, person: string, why: string) {
  return ctx.audit(tx, {
    actor,
    tool: row.tool,
    input: ctx.auditInput(row.tool, row.input),
    event: 'decided',
    decision: 'review_closed',
    approvalId: row.id,
    requestId: row.requestId,
    error: `break-glass review closed by ${person}: ${why}`,
  });
}
