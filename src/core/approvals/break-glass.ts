import { internalError } from '../errors.js';
import { payeeControlFacts } from '../payee-facts.js';
import { checkApprover, personOf, requesterPeople, rolesOf } from '../policy/actors.js';
import { type BreakGlass, breakGlassCap } from '../policy/break-glass.js';
import { moneyOf } from '../policy/conditions.js';
import { coolingOffEnd, firstPaymentOver } from '../policy/payee-controls.js';
import { policyView } from '../policy/tool-view.js';
import type { Actor, Money } from '../policy/types.js';
import type { Tx } from '../store/index.js';
import type { Approval } from './approval.js';
import type { BreakGlassReview } from './break-glass-store.js';
import type { EngineContext } from './context.js';
import { currentRow } from './expire.js';
import type { ApprovalActionResult } from './types.js';
import { closedReason } from './types.js';
import { notFound, refused } from './vote.js';

/**
 * Break-glass (docs/approvals.md "Break-glass"): a person holding the policy's `breakGlass.role`
 * runs a pending approval without its missing votes, below the section's cap, with a reason. It
 * stands in for the votes only: the payee controls are judged again now and refuse it during a
 * cooling-off or above a first payment's cap (the daily limits counted this approval's amount when
 * it opened: its hold stays counted). The approval then executes as after a final vote, with a
 * `break_glass` audit entry and feed event, and a review stays open until closed.
 */
export async function breakGlass(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  reason: string,
): Promise<ApprovalActionResult | 'execute'> {
  const why = reason.trim();
  if (why === '') return refused('break-glass needs a reason, for the reviewers and the audit log');
  const policy = ctx.deps.policy.current();
  const person = personOf(policy, actor);
  const facts = await payeeFactsOf(ctx, id);
  return ctx.transaction(async (tx): Promise<ApprovalActionResult | 'execute'> => {
    const row = await currentRow(ctx, tx, id);
    if (row === undefined) return notFound(id);
    // Refusals carry the approval, so each is audited (`decided/refused`) like a refused vote.
    const section = policy.breakGlass;
    const refusal = mayNot(policy, actor, section) ?? whyNot(ctx, row, actor, person, section, facts);
    if (refusal !== undefined || section === undefined)
      return { status: 'refused', reason: refusal ?? '', approval: await ctx.view(tx, row) };
    const at = ctx.nowIso();
    if (!(await tx.approvals.startExecution(id, ctx.owner, ctx.leaseUntil(), at)))
      throw internalError(`approval ${id} changed under a write lock`);
    await tx.breakGlass.insert({
      approvalId: id,
      person,
      actorId: actor.id,
      reason: why,
      at,
      needed: section.review.people,
      role: section.review.role,
      closers: [],
    });
    await ctx.audit(tx, {
      actor,
      tool: row.tool,
      input: ctx.auditInput(row.tool, row.input),
      event: 'decided',
      decision: 'break_glass',
      approvalId: id,
      requestId: row.requestId,
      error: `break-glass by ${person}: ${why}`,
    });
    await ctx.record(tx, id, 'break_glass', { actor, person, detail: why });
    await ctx.record(tx, id, 'executing', { actor, person });
    return 'execute';
  });
}

/** What the approval would debit: its bound where quoted, else the amount the tool reports. */
function debitOf(ctx: EngineContext, row: Approval): Money | undefined {
  if (row.bound !== null) return row.bound.max;
  const tool = ctx.deps.registry.get(row.tool);
  return tool === undefined ? undefined : moneyOf(policyView(tool), row.input);
}

/** The payee controls' facts of the approval's payee, read before the transaction. */
async function payeeFactsOf(ctx: EngineContext, id: string) {
  const row = await ctx.read((s) => s.approvals.byId(id));
  const tool = row === undefined ? undefined : ctx.deps.registry.get(row.tool);
  const payee = tool === undefined || row === undefined ? undefined : policyView(tool).payee?.(row.input);
  const directory = ctx.deps.payees;
  return payee === undefined || directory === undefined ? undefined : payeeControlFacts(directory, payee);
}

/** Whether this person may break the glass at all under the policy in force. */
function mayNot(
  policy: ReturnType<EngineContext['deps']['policy']['current']>,
  actor: Actor,
  section: BreakGlass | undefined,
): string | undefined {
  if (section === undefined)
    return 'break-glass is off: the policy has no breakGlass section (docs/approvals.md "Break-glass")';
  if (!rolesOf(policy, actor).includes(section.role))
    return `break-glass needs role ${section.role} (policy breakGlass.role); ${actor.id} does not hold it`;
  if (section.stepUp !== undefined)
    return 'break-glass here needs a passkey confirmation (policy breakGlass.stepUp), which this front end cannot ask for yet: approvers vote instead';
  return undefined;
}

function whyNot(
  ctx: EngineContext,
  row: Approval,
  actor: Actor,
  person: string,
  section: BreakGlass | undefined,
  facts: Awaited<ReturnType<typeof payeeFactsOf>>,
): string | undefined {
  if (section === undefined) return undefined;
  if (row.state !== 'pending') return closedReason(row.id, row.state);
  const policy = ctx.deps.policy.current();
  if (actor.id === row.requesterId || requesterPeople(policy, row.requester, row.requesterPerson).has(person))
    return `${person} requested ${row.id}; break-glass is never by the requester`;
  const money = debitOf(ctx, row);
  if (money !== undefined) {
    const cap = breakGlassCap(section, money.currency);
    if (cap === undefined)
      return `break-glass caps no ${money.currency} (policy breakGlass.max): approvers vote instead`;
    if (money.amount > cap)
      return `break-glass may run at most ${cap} ${money.currency} (policy breakGlass.max); ${row.id} would debit ${money.amount} ${money.currency}: approvers vote instead`;
  }
  if (facts !== undefined) {
    const over = firstPaymentOver(policy.payees, facts, money);
    if (over !== undefined) return `break-glass refused: ${over}`;
    const end = coolingOffEnd(policy.payees, facts, ctx.now());
    if (end !== undefined)
      return `break-glass refused: ${facts.name ?? facts.id} is in its cooling-off period after its bank details were set, until ${end.toISOString()} (policy payees.coolingOff)`;
  }
  return undefined;
}

/**
 * One person closes a break-glass review: a holder of its role, never the person who broke the
 * glass, each person once, with a reason. Closed once `needed` distinct people did.
 */
export async function closeReview(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  reason: string,
): Promise<{ status: 'ok'; review: BreakGlassReview } | { status: 'refused' | 'not_found'; reason: string }> {
  const why = reason.trim();
  if (why === '') return { status: 'refused', reason: 'closing a review needs a reason, for the audit log' };
  const policy = ctx.deps.policy.current();
  const person = personOf(policy, actor);
  return ctx.transaction(async (tx) => {
    const review = await tx.breakGlass.byApproval(id);
    const row = await tx.approvals.byId(id);
    if (review === undefined || row === undefined)
      return { status: 'not_found' as const, reason: `no break-glass review of ${id}` };
    const refusal = closeRefusal(review, actor, person, policy);
    if (refusal !== undefined) return { status: 'refused' as const, reason: refusal };
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
  actor: Actor,
  person: string,
  policy: ReturnType<EngineContext['deps']['policy']['current']>,
): string | undefined {
  if (review.closedAt !== undefined)
    return `the break-glass review of ${review.approvalId} is closed already`;
  if (person === review.person || actor.id === review.actorId)
    return `${person} broke the glass on ${review.approvalId}; its review is closed by others`;
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
