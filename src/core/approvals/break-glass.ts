import { internalError } from '../errors.js';
import { formatAmount } from '../money.js';
import { optional } from '../optional.js';
import { payeeControlFacts } from '../payee-facts.js';
import { isRequesterOf, personOf, rolesOf } from '../policy/actors.js';
import { type BreakGlass, breakGlassCap } from '../policy/break-glass.js';
import { moneyOf } from '../policy/conditions.js';
import { coolingOffEnd, firstPaymentOver } from '../policy/payee-controls.js';
import type { Policy } from '../policy/schema.js';
import { policyView } from '../policy/tool-view.js';
import type { Actor, Money } from '../policy/types.js';
import type { Stores, Tx } from '../store/index.js';
import type { Approval } from './approval.js';
import { reasonProblem } from './break-glass-reason.js';
import type { EngineContext } from './context.js';
import { currentRow } from './expire.js';
import { type SignTarget, type StepUpProof, sameTarget, signTargetOf, type VoteEvidence } from './step-up.js';
import type { ApprovalActionResult, ApprovalView } from './types.js';
import { closedReason } from './types.js';
import { notFound, refused } from './vote.js';

/**
 * Break-glass may go ahead now: what the person's passkey would sign (the approval as a vote would
 * sign it, with the reason) and the cap it runs under.
 */
export interface BreakGlassReady {
  status: 'ready';
  approval: ApprovalView;
  target: SignTarget;
  /** The cap in the currency of the approval's debit (break-glass runs nothing without one). */
  cap: Money;
}

const NO_REASON = 'break-glass needs a reason, for the reviewers and the audit log';

/** Why break-glass may not go ahead (with the approval when there is one, for the audit). */
export type BreakGlassRefusal = Exclude<ApprovalActionResult, { status: 'ok' }>;

/**
 * Everything break-glass checks, without running it (docs/approvals.md "Break-glass"): the role,
 * never the requester, the cap, the payee controls, the reason. The CLI asks it before it hands out
 * a passkey link; the page asks it for what to sign. Refusals carry the approval, for the audit.
 */
export async function breakGlassCheck(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  reason: string,
): Promise<BreakGlassReady | BreakGlassRefusal> {
  const why = reason.trim();
  const bad = reasonRefusal(ctx, why);
  if (bad !== undefined) return { status: 'refused', reason: bad };
  return checkPrepared(ctx, id, actor, why, await prepare(ctx, id, actor));
}

/** What judging a break-glass reads before its transaction: the policy, the person, the payee's facts. */
interface Prepared {
  policy: ReturnType<EngineContext['deps']['policy']['current']>;
  person: string;
  facts: Awaited<ReturnType<typeof payeeFactsOf>>;
}

async function prepare(ctx: EngineContext, id: string, actor: Actor): Promise<Prepared> {
  const policy = ctx.deps.policy.current();
  return { policy, person: personOf(policy, actor), facts: await payeeFactsOf(ctx, id) };
}

/** The check of `breakGlassCheck`, its reason taken and what it reads first already read. */
function checkPrepared(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  why: string,
  { policy, person, facts }: Prepared,
): Promise<BreakGlassReady | BreakGlassRefusal> {
  return ctx.transaction(async (tx): Promise<BreakGlassReady | BreakGlassRefusal> => {
    const row = await currentRow(ctx, tx, id);
    if (row === undefined) return { status: 'not_found', reason: `no approval ${id}` };
    const judged = await judgeNow(ctx, tx, policy, row, actor, person, facts);
    if (typeof judged === 'string') return refusal(ctx, tx, judged, row);
    const money = debitOf(ctx, row);
    const cap = money === undefined ? undefined : breakGlassCap(judged, money.currency);
    // judge() refused every approval without a debit or a cap for it.
    if (money === undefined || cap === undefined)
      throw internalError(`break-glass judged ${id} without a cap`);
    return {
      status: 'ready',
      approval: await ctx.view(tx, row),
      target: targetOf(ctx, row, person, why),
      cap: { amount: cap, currency: money.currency },
    };
  });
}

/**
 * Break-glass (docs/approvals.md "Break-glass"): a person holding the policy's `breakGlass.role`
 * runs a pending approval without its missing votes, below the section's cap, with a reason. It
 * stands in for the votes only: the payee controls are judged again now and refuse it during a
 * cooling-off or above a first payment's cap (the daily limits counted this approval's amount when
 * it opened: its hold stays counted). Under `breakGlass.stepUp: passkey` it needs `proof`, a passkey
 * assertion over the approval and the reason, checked like a signed vote's. The approval then
 * executes as after a final vote, with a `break_glass` audit entry (holding the assertion) and feed
 * event, and a review stays open until closed.
 */
export async function breakGlass(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  reason: string,
  proof?: StepUpProof,
): Promise<ApprovalActionResult | 'execute'> {
  const why = reason.trim();
  const bad = reasonRefusal(ctx, why);
  if (bad !== undefined) return refused(bad);
  const prepared = await prepare(ctx, id, actor);
  const { policy, person, facts } = prepared;
  let evidence: VoteEvidence | undefined;
  if (proof !== undefined || policy.breakGlass?.stepUp !== undefined) {
    // Judged first (a refusal says why, not "passkey needed"), then the signature is checked
    // outside the transaction, against what breaking the glass would sign now.
    const ready = await checkPrepared(ctx, id, actor, why, prepared);
    if (ready.status !== 'ready') return ready;
    const signed = await confirmed(ctx, ready, proof);
    if ('reason' in signed) return { status: 'refused', reason: signed.reason, approval: ready.approval };
    evidence = signed.evidence;
  }
  return ctx.transaction(async (tx): Promise<ApprovalActionResult | 'execute'> => {
    const row = await currentRow(ctx, tx, id);
    if (row === undefined) return notFound(id);
    // Everything is judged again here, in the transaction that runs it: since the link was handed
    // out, the approval may have been decided, re-quoted or expired, the policy or the payee changed.
    const section = await judgeNow(ctx, tx, policy, row, actor, person, facts);
    if (typeof section === 'string') return refusal(ctx, tx, section, row);
    if (evidence !== undefined) {
      const stale = await notCounted(ctx, tx, row, person, why, evidence);
      if (stale !== undefined) return refusal(ctx, tx, stale, row);
    }
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
    // A credential id names the passkey, it is no secret: the assertion itself is the evidence.
    const signedWith = evidence === undefined ? '' : ` (confirmed with passkey ${evidence.credentialId})`;
    await ctx.audit(tx, {
      actor,
      tool: row.tool,
      input: ctx.auditInput(row.tool, row.input),
      event: 'decided',
      decision: 'break_glass',
      approvalId: id,
      requestId: row.requestId,
      error: `break-glass by ${person}: ${why}${signedWith}`,
      ...optional('evidence', evidence),
    });
    // Its history line says so in every front end (the credential stays in the audit entry).
    const detail = evidence === undefined ? why : `${why} (confirmed with a passkey)`;
    await ctx.record(tx, id, 'break_glass', { actor, person, detail });
    await ctx.record(tx, id, 'executing', { actor, person });
    return 'execute';
  });
}

/**
 * Why this reason cannot be taken, before anything is looked at: it is signed, kept in the audit
 * entry and the review as given, and printed to reviewers (./break-glass-reason.ts).
 */
const reasonRefusal = (ctx: EngineContext, why: string): string | undefined =>
  why === '' ? NO_REASON : reasonProblem(why, (text) => ctx.deps.audit.sanitized(text));

/** What breaking the glass on this row with this reason signs. */
const targetOf = (ctx: EngineContext, row: Approval, person: string, why: string): SignTarget =>
  signTargetOf(row, person, ctx.auditInput(row.tool, row.input), why);

const refusal = async (
  ctx: EngineContext,
  stores: Stores,
  reason: string,
  row: Approval,
): Promise<BreakGlassRefusal> => ({ status: 'refused', reason, approval: await ctx.view(stores, row) });

/**
 * Under step-up, the passkey assertion checked against what breaking the glass would sign now: the
 * proof to keep, or why it does not count. Nothing runs without it.
 */
async function confirmed(
  ctx: EngineContext,
  ready: BreakGlassReady,
  proof: StepUpProof | undefined,
): Promise<{ evidence: VoteEvidence } | { reason: string }> {
  if (proof === undefined)
    return {
      reason: `break-glass here needs a passkey confirmation (policy breakGlass.stepUp): \`bankops approvals break-glass ${ready.approval.id} --reason "…"\` prints the page's link`,
    };
  const gate = ctx.deps.stepUp;
  if (gate === undefined) return { reason: 'passkey confirmation is not available in this process' };
  const checked = await gate.verify(ready.target, proof);
  return checked.ok ? { evidence: checked.value } : { reason: `not run: ${checked.reason}` };
}

/**
 * Inside the transaction: what was signed must still be what would run (a new quote voids it), and
 * the passkey's counter moves forward here, with the break-glass, or neither happens.
 */
async function notCounted(
  ctx: EngineContext,
  tx: Tx,
  row: Approval,
  person: string,
  why: string,
  evidence: VoteEvidence,
): Promise<string | undefined> {
  if (!sameTarget(evidence.signed, targetOf(ctx, row, person, why)))
    return `not run: what you signed is no longer what ${row.id} would run (a new quote since); ask for a new link`;
  const counted = await ctx.deps.stepUp?.commit(tx, evidence);
  return counted?.ok === true ? undefined : `not run: ${counted?.reason ?? 'no passkey check'}`;
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

/**
 * As `judge`, and once only: a run that broke the glass and came back with a new quote waits for
 * its approvers (its review stays as it was).
 */
async function judgeNow(
  ctx: EngineContext,
  stores: Stores,
  policy: Policy,
  row: Approval,
  actor: Actor,
  person: string,
  facts: Awaited<ReturnType<typeof payeeFactsOf>>,
): Promise<BreakGlass | string> {
  const judged = judge(ctx, policy, row, actor, person, facts);
  if (typeof judged === 'string') return judged;
  const earlier = await stores.breakGlass.byApproval(row.id);
  return earlier === undefined
    ? judged
    : `the glass was broken on ${row.id} already (by ${earlier.person} at ${earlier.at}); its new quote waits for its approvers`;
}

/** The policy's section when this person may break the glass on this row now, else why not. */
function judge(
  ctx: EngineContext,
  policy: Policy,
  row: Approval,
  actor: Actor,
  person: string,
  facts: Awaited<ReturnType<typeof payeeFactsOf>>,
): BreakGlass | string {
  const section = policy.breakGlass;
  if (section === undefined)
    return 'break-glass is off: the policy has no breakGlass section (docs/approvals.md "Break-glass")';
  if (!rolesOf(policy, actor).includes(section.role))
    return `break-glass needs role ${section.role} (policy breakGlass.role); ${actor.id} does not hold it`;
  return whyNot(ctx, policy, row, actor, person, section, facts) ?? section;
}

function whyNot(
  ctx: EngineContext,
  policy: Policy,
  row: Approval,
  actor: Actor,
  person: string,
  section: BreakGlass,
  facts: Awaited<ReturnType<typeof payeeFactsOf>>,
): string | undefined {
  if (row.state !== 'pending') return closedReason(row.id, row.state);
  if (isRequesterOf(policy, row, actor, person))
    return `${person} requested ${row.id}; break-glass is never by the requester`;
  // It stands in for votes on money movements only, under its cap: a policy change, a card's status,
  // a new payee… debit nothing the cap could bound, and wait for their approvers.
  const money = debitOf(ctx, row);
  if (money === undefined)
    return `break-glass runs money movements under its cap only; ${row.tool} waits for its approvers`;
  const cap = breakGlassCap(section, money.currency);
  if (cap === undefined)
    return `break-glass caps no ${money.currency} (policy breakGlass.max): approvers vote instead`;
  if (money.amount > cap)
    return `break-glass may run at most ${formatAmount({ amount: cap, currency: money.currency })} (policy breakGlass.max); ${row.id} would debit ${formatAmount(money)}: approvers vote instead`;
  if (facts !== undefined) {
    const over = firstPaymentOver(policy.payees, facts, money);
    if (over !== undefined) return `break-glass refused: ${over}`;
    const end = coolingOffEnd(policy.payees, facts, ctx.now());
    if (end !== undefined)
      return `break-glass refused: ${facts.name ?? facts.id} is in its cooling-off period after its bank details were set, until ${end.toISOString()} (policy payees.coolingOff)`;
  }
  return undefined;
}
