import { internalError } from '../errors.js';
import { optional } from '../optional.js';
import { checkApprover, isRequesterOf, personOf, requesterPeople } from '../policy/actors.js';
import type { Actor } from '../policy/types.js';
import { toFailure } from '../run-tool.js';
import type { Stores, Tx } from '../store/index.js';
import type { Approval } from './approval.js';
import { approvalEntry } from './audit.js';
import type { EngineContext } from './context.js';
import { currentRow } from './expire.js';
import { approverRolesOf, standing } from './quorum.js';
import { type StepUpProof, sameTarget, signTargetOf, type VoteEvidence } from './step-up.js';
import { type ApprovalActionResult, closedReason, closedWords } from './types.js';

export const refused = (reason: string): ApprovalActionResult => ({ status: 'refused', reason });

export const notFound = (id: string): ApprovalActionResult => ({
  status: 'not_found',
  reason: `no approval ${id}`,
});

const refusal = async (
  ctx: EngineContext,
  stores: Stores,
  reason: string,
  row: Approval,
): Promise<ApprovalActionResult> => ({
  status: 'refused',
  reason,
  approval: await ctx.view(stores, row),
});

/** Every call is audited, refused ones too: who tried to approve, reject or cancel what, and why not. */
export async function auditRefusal(
  ctx: EngineContext,
  actor: Actor,
  result: ApprovalActionResult,
): Promise<ApprovalActionResult> {
  if (result.status !== 'refused' || result.approval === undefined) return result;
  const approval = result.approval;
  await ctx.deps.audit.append(
    approvalEntry({
      actor,
      tool: approval.tool,
      input: approval.input,
      event: 'decided',
      decision: 'refused',
      approvalId: approval.id,
      requestId: approval.requestId,
      outcome: 'failed',
      error: result.reason,
    }),
  );
  return result;
}

/** Why this person may not vote on this row now, or their person when they may. */
async function mayVote(
  ctx: EngineContext,
  stores: Stores,
  row: Approval,
  approver: Actor,
): Promise<{ person: string } | { reason: string }> {
  if (row.state !== 'pending') return { reason: closedReason(row.id, row.state) };
  const policy = ctx.deps.policy.current();
  const check = checkApprover(policy, {
    approver,
    requester: row.requester,
    requesterPerson: row.requesterPerson,
    approverRole: approverRolesOf(row),
  });
  if (!check.ok) return { reason: check.reason };
  // Each identity once, and each person once: by the person recorded with an earlier vote, and by
  // that vote's identity judged again under the policy in force now.
  const earlier = (await stores.approvals.votes(row.id, row.attempt)).find(
    (vote) =>
      vote.approverId === approver.id ||
      vote.person === check.person ||
      personOf(policy, vote.approver) === check.person,
  );
  if (earlier !== undefined) {
    const as = earlier.approverId === approver.id ? '' : ` (as ${earlier.approverId})`;
    return {
      reason: `${check.person} already approved ${row.id}${as}; each person counts once (${row.requiredApprovers} distinct approvers needed)`,
    };
  }
  return { person: check.person };
}

/**
 * Before the vote is recorded: whether the call can still succeed (the tool's `check`: the balance
 * still covers the debit). A refusal leaves the approval as it was, for when the money is there.
 */
async function stillPossible(
  ctx: EngineContext,
  row: Approval,
  approver: Actor,
): Promise<string | undefined> {
  const tool = ctx.deps.registry.get(row.tool);
  if (tool?.check === undefined) return undefined;
  const view = await ctx.read((s) => ctx.view(s, row));
  try {
    await tool.check(row.input, ctx.readContext(approver), view);
    return undefined;
  } catch (error) {
    return `not recorded: ${toFailure(error, []).message}`;
  }
}

/** What a vote by `person` would sign on this row now. */
const targetOf = (ctx: EngineContext, row: Approval, person: string) =>
  signTargetOf(row, person, ctx.auditInput(row.tool, row.input));

/**
 * Under a step-up rule, the passkey assertion checked against what would run now (the signature,
 * its origin and relying party, user verification, the credential being this person's): the proof
 * to keep with the vote, or why the vote is refused. A click alone never counts.
 */
async function confirmed(
  ctx: EngineContext,
  row: Approval,
  person: string,
  proof: StepUpProof | undefined,
): Promise<{ evidence: VoteEvidence } | { reason: string }> {
  if (proof === undefined) {
    return {
      reason: `${row.id} needs each vote confirmed with a passkey (rule ${row.policyRule}): open the approval page from Slack or \`bankops approvals approve ${row.id}\`; a click alone does not count`,
    };
  }
  const gate = ctx.deps.stepUp;
  if (gate === undefined) return { reason: 'passkey confirmation is not available in this process' };
  const checked = await gate.verify(targetOf(ctx, row, person), proof);
  return checked.ok ? { evidence: checked.value } : { reason: `not recorded: ${checked.reason}` };
}

/**
 * One vote. Returns `execute` when this vote completed the quorum: the approval is then `executing`
 * under this process, committed (synchronous=FULL) before anything is sent, and exactly one vote
 * can make that change. Under a step-up rule the vote needs `proof`, a passkey assertion over what
 * would run (docs/approvals.md "Step-up").
 */
export async function vote(
  ctx: EngineContext,
  id: string,
  approver: Actor,
  proof?: StepUpProof,
): Promise<ApprovalActionResult | 'execute'> {
  const first = await ctx.transaction(async (tx) => {
    const row = await currentRow(ctx, tx, id);
    if (row === undefined) return notFound(id);
    const allowed = await mayVote(ctx, tx, row, approver);
    if ('reason' in allowed) return refusal(ctx, tx, allowed.reason, row);
    return { row, person: allowed.person };
  });
  if ('status' in first) return first;
  const before = first.row;
  let evidence: VoteEvidence | undefined;
  if (before.stepUp !== null) {
    const signed = await confirmed(ctx, before, first.person, proof);
    if ('reason' in signed) return ctx.read((s) => refusal(ctx, s, signed.reason, before));
    evidence = signed.evidence;
  }
  const impossible = await stillPossible(ctx, before, approver);
  if (impossible !== undefined) return ctx.read((s) => refusal(ctx, s, impossible, before));

  return ctx.transaction(async (tx): Promise<ApprovalActionResult | 'execute'> => {
    const row = await currentRow(ctx, tx, id);
    if (row === undefined) return notFound(id);
    // It may have moved while the balance was read (another vote, a re-quote): judged again.
    const now = await mayVote(ctx, tx, row, approver);
    if ('reason' in now) return refusal(ctx, tx, now.reason, row);
    if (row.attempt !== before.attempt)
      return refusal(ctx, tx, `approval ${id} changed while you voted; look again`, row);
    if (row.stepUp !== null) {
      // What was signed must still be what would run: a new quote or input voids the signature.
      if (evidence === undefined || !sameTarget(evidence.signed, targetOf(ctx, row, now.person))) {
        return refusal(
          ctx,
          tx,
          `not recorded: what you signed is no longer what ${id} would run (a new quote since); read it again and sign again`,
          row,
        );
      }
      // The signature counter moves forward with the vote, in this transaction, or the vote is refused.
      const counted = await ctx.deps.stepUp?.commit(tx, evidence);
      if (counted?.ok !== true)
        return refusal(ctx, tx, `not recorded: ${counted?.reason ?? 'no passkey check'}`, row);
    }
    const at = ctx.nowIso();
    const recorded = await tx.approvals.recordVote(id, {
      person: now.person,
      approverId: approver.id,
      approver,
      attempt: row.attempt,
      votedAt: at,
      evidence: evidence ?? null,
    });
    if (!recorded) throw internalError(`approval ${id} changed under a write lock`);
    await ctx.audit(tx, {
      actor: approver,
      tool: row.tool,
      input: ctx.auditInput(row.tool, row.input),
      event: 'decided',
      decision: 'approved',
      approvalId: id,
      requestId: row.requestId,
      ...optional('evidence', evidence),
    });
    // Each person once, seated in the groups so that the quorum completes if it can (./quorum.ts).
    const quorum = standing(
      ctx.deps.policy.current(),
      row,
      await tx.approvals.votes(id, row.attempt),
    ).complete;
    // pending → approved → executing in one commit: `executing` with its owner is on disk
    // (synchronous=FULL) before anything is sent.
    if (quorum && !(await tx.approvals.startExecution(id, ctx.owner, ctx.leaseUntil(), at)))
      throw internalError(`approval ${id} changed under a write lock`);
    await ctx.record(tx, id, 'voted', { actor: approver, person: now.person });
    if (quorum) await ctx.record(tx, id, 'executing', { actor: approver, person: now.person });
    return quorum ? 'execute' : { status: 'ok', approval: (await ctx.viewById(tx, id))! };
  });
}

export async function reject(
  ctx: EngineContext,
  id: string,
  approver: Actor,
  reason: string,
): Promise<ApprovalActionResult> {
  if (reason.trim() === '') return refused('a rejection needs a reason, for the requester and the audit log');
  return ctx.transaction(async (tx): Promise<ApprovalActionResult> => {
    const row = await currentRow(ctx, tx, id);
    if (row === undefined) return notFound(id);
    if (row.state !== 'pending') return refusal(ctx, tx, closedReason(id, row.state), row);
    const policy = ctx.deps.policy.current();
    const requester = row.requester;
    const person = personOf(policy, approver);
    if (isRequesterOf(policy, row, approver, person)) {
      return refusal(ctx, tx, `${approver.id} requested ${id}; to withdraw it, cancel it`, row);
    }
    const check = checkApprover(policy, {
      approver,
      requester,
      requesterPerson: row.requesterPerson,
      approverRole: approverRolesOf(row),
    });
    if (!check.ok) return refusal(ctx, tx, check.reason, row);
    return close(ctx, tx, row, 'rejected', approver, person, reason.trim());
  });
}

export async function cancel(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  reason?: string,
): Promise<ApprovalActionResult> {
  return ctx.transaction(async (tx): Promise<ApprovalActionResult> => {
    const row = await currentRow(ctx, tx, id);
    if (row === undefined) return notFound(id);
    const person = personOf(ctx.deps.policy.current(), actor);
    // The requester, under any identity of the same person.
    const requesters = requesterPeople(ctx.deps.policy.current(), row.requester, row.requesterPerson);
    if (actor.id !== row.requesterId && !requesters.has(person)) {
      return refusal(ctx, tx, `only the requester (${row.requesterId}) can cancel ${id}`, row);
    }
    if (row.state !== 'pending') {
      return refusal(
        ctx,
        tx,
        `approval ${id} ${closedWords(row.state)}; only a pending one can be cancelled`,
        row,
      );
    }
    const why = reason?.trim() ? reason.trim() : 'cancelled by the requester';
    return close(ctx, tx, row, 'cancelled', actor, person, why);
  });
}

/** pending → rejected | cancelled, with its audit entry and feed event. */
async function close(
  ctx: EngineContext,
  tx: Tx,
  row: Approval,
  state: 'rejected' | 'cancelled',
  actor: Actor,
  person: string,
  reason: string,
): Promise<ApprovalActionResult> {
  if (!(await tx.approvals.close(row.id, { state, decidedBy: actor.id, reason, at: ctx.nowIso() })))
    throw internalError(`approval ${row.id} changed under a write lock`);
  await ctx.audit(tx, {
    actor,
    tool: row.tool,
    input: ctx.auditInput(row.tool, row.input),
    event: 'decided',
    decision: state,
    approvalId: row.id,
    requestId: row.requestId,
    outcome: 'failed',
    error: `${state} by ${actor.id}: ${reason}`,
  });
  await ctx.record(tx, row.id, state, { actor, person, detail: reason });
  return { status: 'ok', approval: (await ctx.viewById(tx, row.id))! };
}
