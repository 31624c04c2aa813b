import { randomBytes } from 'node:crypto';
import type { ApprovalEngine } from './approvals/engine.js';
import type { FeedFollower, FollowOptions } from './approvals/follow.js';
import type { SignTarget, StepUpProof } from './approvals/step-up.js';
import type {
  ApprovalActionResult,
  ApprovalEvent,
  ApprovalFilter,
  ApprovalListener,
  ApprovalState,
  ApprovalView,
  Execution,
  Reconciliation,
  RequestOrigin,
  WaitingApproval,
} from './approvals/types.js';
import type { CardDirectory } from './cards.js';
import { systemClock } from './clock.js';
import { confirmWrite } from './confirm-write.js';
import { notConfigured } from './errors.js';
import type { ExecuteRequest, ExecutorDeps } from './execute-request.js';
import { requestFingerprint } from './fingerprint.js';
import { forgetUnkeyed } from './idempotency.js';
import { checkInput, invalidRequest, invalidResult } from './input-check.js';
import { replayOfKey } from './key-replay.js';
import { observed } from './observe.js';
import { optional } from './optional.js';
import { payeeControlFacts } from './payee-facts.js';
import { isKnownActor } from './policy/actors.js';
import { evaluate } from './policy/evaluate.js';
import type { PayeeControlFacts } from './policy/payee-controls.js';
import type { Policy } from './policy/schema.js';
import { policyView } from './policy/tool-view.js';
import type { Actor, Decision, PolicyTool } from './policy/types.js';
import { redact } from './redact.js';
import { appendRefusal, refuseDenied, type refusedEntry } from './refusal-audit.js';
import type { Registry } from './registry.js';
import { joinedReplay, noteReplay } from './replay-audit.js';
import type { ExecuteResult, FieldError } from './results.js';
import { type AllowedCall, runAllowed } from './run-allowed.js';
import { secretsOf } from './run-tool.js';
import type { AnyTool } from './tool.js';
import { countedCall, countsTotals, countTotals } from './totals/admit.js';
import { type Admission, admission, runCounted } from './totals/direct.js';

export type { WriteToConfirm } from './confirmation.js';

export type { ExecuteRequest, ExecutorDeps } from './execute-request.js';
export { requestFingerprint } from './fingerprint.js';

/**
 * The one way any front end calls the service: validate, authorize, apply the approval policy,
 * audit, then run the tool or open an approval (DESIGN "Data flow").
 */
export class Executor {
  private readonly inflight = new Map<string, Promise<ExecuteResult>>();
  /** Family B cards seen in any answer, from any front end: `/bank card lock <id>` finds them. */
  readonly cards: CardDirectory;

  private readonly fingerprintKey: Buffer;

  constructor(private readonly deps: ExecutorDeps) {
    this.cards = deps.cards;
    this.fingerprintKey = deps.fingerprintKey ?? randomBytes(32);
  }

  /** Forgets keys whose fingerprint an earlier version made without a key (`forgetUnkeyed`). */
  forgetUnkeyedFingerprints(): Promise<void> {
    return forgetUnkeyed(this.deps.storage, this.deps.registry);
  }

  get registry(): Registry {
    return this.deps.registry;
  }

  /** The policy in force now (it reloads), for front ends that show an actor what it may do. */
  get policy(): Policy {
    return this.deps.policy.current();
  }

  /** Whether the policy in force has any entry for this actor (an unknown one is told so, with its id). */
  knows(actor: Actor): boolean {
    return isKnownActor(this.policy, actor);
  }

  /**
   * What is wrong with an input, field by field, by the tool's schema alone: nothing read, nothing
   * written, so a form can say it in place at once. `execute` judges the same input again and
   * audits the refusal.
   */
  inputErrors(toolName: string, input: unknown): FieldError[] {
    const tool = this.deps.registry.get(toolName);
    if (tool === undefined) return [{ path: '', message: `unknown tool '${toolName}'` }];
    const checked = checkInput(tool, input);
    return checked.ok ? [] : checked.errors;
  }

  /** Runs or refuses one call; the observer (metrics) hears how each ended. */
  execute(req: ExecuteRequest): Promise<ExecuteResult> {
    const tool = this.deps.registry.get(req.tool)?.name ?? 'unknown';
    // One version of the policy for the whole decision, named in its audit entries.
    return observed(this.deps.observer, { tool, frontEnd: req.actor.frontEnd }, () =>
      this.deps.policy.decide(() => this.decide(req)),
    );
  }

  private async decide(req: ExecuteRequest): Promise<ExecuteResult> {
    const { actor } = req;
    const tool = this.deps.registry.get(req.tool);
    if (tool === undefined) {
      const message = `unknown tool '${req.tool}'; \`bankops tools\` lists the tools`;
      await this.auditRefusal(req.tool, actor, redact(req.input ?? {}), 'invalid', message);
      return invalidResult(req.tool, message);
    }
    const checked = checkInput(tool, req.input);
    if (!checked.ok) {
      // A misspelt secret field (`pn` for `pin`) is a secret all the same: unknown values are not kept.
      const hidden = [...(tool.secretFields ?? []), ...checked.unknown];
      await this.auditRefusal(
        tool.name,
        actor,
        redact(req.input ?? {}, hidden),
        'invalid',
        checked.message,
        tool,
      );
      return { status: 'invalid', tool: tool.name, message: checked.message, errors: checked.errors };
    }
    const input = checked.input;
    const view = policyView(tool);
    const [policy, now] = [this.deps.policy.current(), (this.deps.clock ?? systemClock).now()];
    const judged = { tool: view, input, actor, payee: await this.payeeFacts(view, input), now };
    // Running totals and limits are decided where the call is admitted, in its transaction (an
    // approval or a direct run); a denial without them is looked at again with them.
    const counted = countedCall(policy, view, input, actor, now);
    let decision = evaluate(policy, judged);
    if (counted !== undefined && decision.decision === 'deny' && countsTotals(policy)) {
      const totals = await this.deps.storage.read((stores) => countTotals(stores, counted));
      decision = evaluate(policy, { ...judged, totals });
    }
    if (decision.decision === 'deny') {
      return refuseDenied(this.deps.audit, tool, actor, input, decision.reason);
    }

    // A digest of who asks for what: kept with idempotency keys and approvals, so made only for them
    // (a plain read does without; its join key below is the input itself, in memory only).
    const plainRead = tool.hints.readOnly && req.idempotencyKey === undefined;
    const fingerprint = plainRead ? undefined : this.fingerprintOf({ tool, actor, input });
    let replay = false;
    if (fingerprint !== undefined) {
      const used = await replayOfKey(this.deps, { tool, input, req, fingerprint }, decision);
      if (used.answer !== undefined) return used.answer;
      replay = used.replay;
    }
    if (decision.decision === 'approval')
      return this.openApproval(
        tool,
        input,
        req,
        decision,
        fingerprint ?? this.fingerprintOf({ tool, actor, input }),
        counted && admission(counted, judged),
      );

    if (req.confirm !== undefined && !tool.hints.readOnly && !replay) {
      const declined = await confirmWrite(this.deps.audit, { tool, input, actor }, req.confirm);
      if (declined !== undefined) return declined;
      // The answer may have taken minutes: the call is judged again (policy, idempotency key) as if
      // sent now, so a "yes" never runs a write the policy has since denied or put behind approval.
      const { confirm: _asked, ...confirmed } = req;
      return this.decide(confirmed);
    }

    // An identical request (same actor, tool, input and idempotency key) while the first is still
    // running joins it (assistants retry); different keys are different operations.
    const flight =
      fingerprint === undefined
        ? `read\u0000${actor.id}\u0000${tool.name}\u0000${JSON.stringify(input)}`
        : `${fingerprint}\u0000${req.idempotencyKey ?? ''}`;
    const joined = this.inflight.get(flight);
    if (joined !== undefined) {
      // Answered by the first: on record as a repeat, once that answer is known.
      const result = await joined;
      noteReplay(this.deps.audit, { tool, input, actor }, joinedReplay(result));
      return result;
    }
    const call = { tool, input, actor, fingerprint, req };
    // A repeat of a key already used is not a new movement: it is not counted again.
    const running =
      counted === undefined || replay
        ? runAllowed(this.deps, call)
        : runCounted(this.deps, call, { counted, judged, first: decision }, (approval, admitted) =>
            this.openApproval(tool, input, req, approval, this.fingerprintOf(call), admitted),
          );
    this.inflight.set(flight, running);
    // Awaited here rather than chained with `.finally()`: fewer promises on every call.
    try {
      return await running;
    } finally {
      this.inflight.delete(flight);
    }
  }

  /** What the payee controls weigh of the payee a call pays, read before the pure evaluator runs. */
  private async payeeFacts(view: PolicyTool, input: unknown): Promise<PayeeControlFacts | undefined> {
    const id = view.payee?.(input);
    const directory = this.deps.payees;
    if (id === undefined || directory === undefined) return undefined;
    return payeeControlFacts(directory, id);
  }

  private fingerprintOf({ tool, actor, input }: Pick<AllowedCall, 'tool' | 'actor' | 'input'>): string {
    return requestFingerprint(this.fingerprintKey, actor, tool.name, input, tool.secretFields ?? []);
  }

  private async openApproval(
    tool: AnyTool,
    input: Record<string, unknown>,
    req: ExecuteRequest,
    decision: Extract<Decision, { decision: 'approval' }>,
    fingerprint: string,
    admitted?: Admission,
  ): Promise<ExecuteResult> {
    const refusal =
      req.actor.frontEnd === 'system'
        ? `${tool.name} needs approval (rule ${decision.rule.label}), which ${req.actor.id} cannot wait for: bankops's own work runs only what the policy allows outright (docs/policy.md)`
        : this.deps.approvals === undefined
          ? `${tool.name} needs approval, and approvals are not available here`
          : secretsOf(tool, input).length > 0
            ? `${tool.name} needs approval, but its input holds secrets that bankops never stores; change the policy so it does not need approval`
            : undefined;
    if (refusal !== undefined || this.deps.approvals === undefined) {
      return refuseDenied(this.deps.audit, tool, req.actor, input, refusal ?? '');
    }
    const result = await this.deps.approvals.open({
      tool,
      input,
      actor: req.actor,
      decision,
      fingerprint,
      ...optional('idempotencyKey', req.idempotencyKey),
      ...optional('origin', req.origin),
      ...optional('onProgress', req.onProgress),
      ...optional('admission', admitted),
    });
    if (result.status === 'denied') {
      // Refused under the totals counted when it would have opened: a limit, audited as a denial.
      return refuseDenied(this.deps.audit, tool, req.actor, input, result.reason);
    }
    // A preview that found the input naming nothing (an unknown subscription) is the caller's to fix.
    return result.status === 'failed' ? (invalidRequest(tool.name, result.error) ?? result) : result;
  }

  /** A request refused before anything ran (unknown tool, invalid input, denied), on record. */
  private auditRefusal(...refusal: Parameters<typeof refusedEntry>): Promise<void> {
    return appendRefusal(this.deps.audit, ...refusal);
  }

  // Approvals, for every front end.

  private get approvals(): ApprovalEngine {
    if (this.deps.approvals === undefined) throw notConfigured('approvals are not available');
    return this.deps.approvals;
  }

  /** A vote; under a step-up rule it counts only with `proof`, a passkey assertion over what would run. */
  approve(
    id: string,
    approver: Actor,
    onProgress?: (message: string) => void,
    proof?: StepUpProof,
  ): Promise<ApprovalActionResult> {
    return this.deps.policy.decide(() => this.approvals.approve(id, approver, onProgress, proof));
  }

  /** What a vote by `person` would sign now, for a step-up approval that is pending. */
  signTarget(id: string, person: string): Promise<SignTarget | undefined> {
    return this.approvals.signTarget(id, person);
  }

  reject(id: string, approver: Actor, reason: string): Promise<ApprovalActionResult> {
    return this.deps.policy.decide(() => this.approvals.reject(id, approver, reason));
  }

  cancel(id: string, actor: Actor, reason?: string): Promise<ApprovalActionResult> {
    return this.deps.policy.decide(() => this.approvals.cancel(id, actor, reason));
  }

  /** A person settles an approval whose outcome stayed unknown (`unresolved`). */
  reconcile(id: string, actor: Actor, how: Reconciliation): Promise<ApprovalActionResult> {
    return this.deps.policy.decide(() => this.approvals.reconcile(id, actor, how));
  }

  /**
   * Asks again for what an approval marked not sent asked for: the same tool and input as a new
   * request of `actor`, judged by the policy like any (a fresh approval; a fresh quote when it
   * runs). Nothing is re-sent: an approval whose money may have left (unresolved) is refused until
   * a person marks it not sent. A repeat by the same person joins the approval it opened; the old
   * approval's audit trail and history name the new one.
   */
  async askAgain(id: string, actor: Actor, origin?: RequestOrigin): Promise<ExecuteResult> {
    const asked = await this.deps.policy.decide(() => this.approvals.askedAgainOf(id, actor));
    if ('status' in asked)
      return asked.status === 'refused'
        ? { status: 'denied', tool: asked.approval?.tool ?? 'approvals', reason: asked.reason }
        : invalidResult('approvals', asked.status === 'not_found' ? asked.reason : `no approval ${id}`);
    const result = await this.execute({
      tool: asked.tool,
      input: asked.input,
      actor,
      idempotencyKey: `ask-again-${id}`,
      ...optional('origin', origin),
    });
    if (result.status === 'pending_approval' && result.joined === undefined)
      await this.approvals.noteAskedAgain(id, actor, result.approvalId);
    return result;
  }

  /** Break-glass and its reviews (docs/approvals.md "Break-glass"). */
  get breakGlass(): Pick<ApprovalEngine, 'breakGlass' | 'breakGlassCheck' | 'closeReview' | 'reviews'> {
    const engine = this.approvals;
    const decide = this.deps.policy.decide.bind(this.deps.policy);
    return {
      breakGlass: (id, actor, reason, onProgress, proof) =>
        decide(() => engine.breakGlass(id, actor, reason, onProgress, proof)),
      breakGlassCheck: (id, actor, reason, audit) =>
        decide(() => engine.breakGlassCheck(id, actor, reason, audit)),
      closeReview: (id, actor, reason) => decide(() => engine.closeReview(id, actor, reason)),
      reviews: (id) => engine.reviews(id),
    };
  }

  getApproval(id: string): Promise<ApprovalView | undefined> {
    return this.approvals.get(id);
  }

  /** One approval's changes, oldest first. */
  approvalHistory(id: string): Promise<ApprovalEvent[]> {
    return this.approvals.history(id);
  }

  /** What is being executed now, by whom, and until when its lease holds. */
  executingApprovals(): Promise<Execution[]> {
    return this.approvals.executing();
  }

  listApprovals(filter?: ApprovalFilter): Promise<ApprovalView[]> {
    return this.approvals.list(filter);
  }

  /** Every approval in a state, newest first, however many (`listApprovals` gives 500 at most). */
  listAllApprovals(state: ApprovalState): Promise<ApprovalView[]> {
    return this.approvals.listAll(state);
  }

  /** The pending approvals with their rules' reminders, read cheaply (Slack's reminders poll it). */
  waitingApprovals(): Promise<WaitingApproval[]> {
    return this.approvals.waiting();
  }

  /** Asks the service about sent money whose final status is due (for processes that run briefly). */
  settleDue(limit?: number): Promise<number> {
    return this.deps.approvals?.settleDue(limit) ?? Promise.resolve(0);
  }

  recover(): Promise<number> {
    return this.deps.approvals?.recover() ?? Promise.resolve(0);
  }

  /** In this process, after each committed change of an approval. */
  onApprovalEvent(listener: ApprovalListener): () => void {
    return this.approvals.onEvent(listener);
  }

  /** Follows every approval change, from any process, as a named consumer (Slack is one). */
  followApprovals(options: FollowOptions): FeedFollower {
    return this.approvals.follow(options);
  }
}
