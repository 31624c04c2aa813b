import { optional } from '../optional.js';
import { reminderOfRule } from '../policy/reminder.js';
import type { Actor } from '../policy/types.js';
import type { ExecuteResult } from '../results.js';
import type { Scheduler } from '../schedule/scheduler.js';
import type { Approval } from './approval.js';
import { type AskedAgain, askedAgainOf, noteAskedAgain } from './ask-again.js';
import { type BreakGlassReady, type BreakGlassRefusal, breakGlass, breakGlassCheck } from './break-glass.js';
import { closeReview } from './break-glass-review.js';
import type { BreakGlassReview } from './break-glass-store.js';
import { type ApprovalEngineOptions, EngineContext } from './context.js';
import { executeApproval, recoverApprovals } from './execute.js';
import { type ExpiryTimer, expireDue, startExpiryTimer } from './expire.js';
import { type FeedFollower, type FeedReader, type FollowOptions, followFeed } from './follow.js';
import { RECOVERY_JOB, recoveryJob, SETTLEMENT_JOB, settlementJob } from './jobs.js';
import { openApproval } from './open.js';
import { reconcileApproval } from './reconcile.js';
import { stopResending } from './resend.js';
import { releaseApproval } from './send.js';
import { settleDue } from './settle.js';
import { type SignTarget, type StepUpProof, signTargetOf } from './step-up.js';
import { MAX_LIST_LIMIT } from './store.js';
import type {
  ApprovalActionResult,
  ApprovalEvent,
  ApprovalFilter,
  ApprovalListener,
  ApprovalService,
  ApprovalState,
  ApprovalView,
  Execution,
  OpenApprovalRequest,
  Reconciliation,
  WaitingApproval,
} from './types.js';
import { auditRefusal, cancel, notFound, reject, vote } from './vote.js';

export type { ApprovalEngineOptions } from './context.js';

/**
 * Approvals in the store (DESIGN decisions 4, 5 and 14), one step per module: open, vote (approve,
 * reject, cancel), execute and recover, expire, settle (follow sent money), reconcile. Every state
 * change is one write transaction with its audit entry and its feed event, so processes sharing
 * the store agree on who won and every front end hears of it; the service is only called outside
 * transactions, by the one caller that holds the approval's lease.
 */
export class ApprovalEngine implements ApprovalService {
  readonly #ctx: EngineContext;
  #expiry: ExpiryTimer | undefined;
  /** Where its periodic jobs run while the background work goes on. */
  #scheduler: Scheduler | undefined;

  constructor(options: ApprovalEngineOptions) {
    this.#ctx = new EngineContext(options);
  }

  get owner(): string {
    return this.#ctx.owner;
  }

  /** The change feed, for front ends that follow approvals wherever they were opened. */
  get feed(): FeedReader {
    return this.#ctx.feed;
  }

  open(request: OpenApprovalRequest): Promise<ExecuteResult> {
    return openApproval(this.#ctx, request);
  }

  async approve(
    id: string,
    approver: Actor,
    onProgress?: (message: string) => void,
    proof?: StepUpProof,
  ): Promise<ApprovalActionResult> {
    const result = await vote(this.#ctx, id, approver, proof);
    if (result !== 'execute') return auditRefusal(this.#ctx, approver, result);
    return this.#execute(id, onProgress);
  }

  /**
   * Break-glass (./break-glass.ts): runs a pending approval without its missing votes, as the
   * final vote would, leaving a review open.
   */
  async breakGlass(
    id: string,
    actor: Actor,
    reason: string,
    onProgress?: (message: string) => void,
    proof?: StepUpProof,
  ): Promise<ApprovalActionResult> {
    const result = await breakGlass(this.#ctx, id, actor, reason, proof);
    if (result !== 'execute') return auditRefusal(this.#ctx, actor, result);
    return this.#execute(id, onProgress);
  }

  /**
   * Whether `actor` may break the glass on this approval now, without doing it: what their passkey
   * would sign and the cap, or the refusal (audited, like a refused break-glass, unless `audit` is
   * false: a page that only shows what would happen).
   */
  async breakGlassCheck(
    id: string,
    actor: Actor,
    reason: string,
    audit = true,
  ): Promise<BreakGlassReady | BreakGlassRefusal> {
    const checked = await breakGlassCheck(this.#ctx, id, actor, reason);
    if (checked.status !== 'ready' && audit) await auditRefusal(this.#ctx, actor, checked);
    return checked;
  }

  /** One person's close of a break-glass review. */
  closeReview(id: string, actor: Actor, reason: string): ReturnType<typeof closeReview> {
    return closeReview(this.#ctx, id, actor, reason);
  }

  /** The break-glass review of an approval, if the glass was broken on it; or every open one. */
  reviews(id?: string): Promise<BreakGlassReview[]> {
    return this.#ctx.read(async (s) => {
      if (id === undefined) return s.breakGlass.open();
      const review = await s.breakGlass.byApproval(id);
      return review === undefined ? [] : [review];
    });
  }

  /** Executes an approval this process just moved to `executing`, and answers with its view. */
  async #execute(id: string, onProgress?: (message: string) => void): Promise<ApprovalActionResult> {
    // This vote completed the quorum: this caller executes, and waits for the outcome — unless the
    // service does not answer in a long-running process: then it returns with the approval
    // `executing` and re-sent in the background (retryingUntil).
    try {
      await executeApproval(this.#ctx, id, onProgress);
    } catch (error) {
      // bankops itself failed (a database locked past its busy timeout…): the approval is let go,
      // so `recover()` in any process sends it again with the same request id, instead of it
      // waiting for this live process's lease to run out.
      await releaseApproval(this.#ctx, id);
      throw error;
    }
    const approval = await this.#ctx.read((s) => this.#ctx.viewById(s, id));
    return approval === undefined ? notFound(id) : { status: 'ok', approval };
  }

  async reject(id: string, approver: Actor, reason: string): Promise<ApprovalActionResult> {
    return auditRefusal(this.#ctx, approver, await reject(this.#ctx, id, approver, reason));
  }

  async cancel(id: string, actor: Actor, reason?: string): Promise<ApprovalActionResult> {
    return auditRefusal(this.#ctx, actor, await cancel(this.#ctx, id, actor, reason));
  }

  async reconcile(id: string, actor: Actor, how: Reconciliation): Promise<ApprovalActionResult> {
    return auditRefusal(this.#ctx, actor, await reconcileApproval(this.#ctx, id, actor, how));
  }

  /** What asking again for an approval marked not sent requests anew, or why not (audited then). */
  async askedAgainOf(id: string, actor: Actor): Promise<AskedAgain | ApprovalActionResult> {
    const asked = await askedAgainOf(this.#ctx, id);
    return 'status' in asked ? auditRefusal(this.#ctx, actor, asked) : asked;
  }

  /** Records on the old approval (audit log and history) that `actor` asked again as `next`. */
  noteAskedAgain(id: string, actor: Actor, next: string): Promise<void> {
    return noteAskedAgain(this.#ctx, id, actor, next);
  }

  recover(): Promise<number> {
    return recoverApprovals(this.#ctx);
  }

  async byIdempotencyKey(
    requesterId: string,
    tool: string,
    key: string,
  ): Promise<{ id: string; fingerprint: string } | undefined> {
    const row = await this.#ctx.read((s) => s.approvals.byKey(requesterId, tool, key));
    return row === undefined ? undefined : { id: row.id, fingerprint: row.fingerprint };
  }

  /**
   * What a vote by `person` on this approval would sign now (step-up), or undefined when it is not
   * pending or needs no passkey.
   */
  async signTarget(id: string, person: string): Promise<SignTarget | undefined> {
    const approval = await this.#ctx.read((s) => s.approvals.byId(id));
    if (approval === undefined || approval.state !== 'pending' || approval.stepUp === null) return undefined;
    return signTargetOf(approval, person, this.#ctx.auditInput(approval.tool, approval.input));
  }

  async get(id: string): Promise<ApprovalView | undefined> {
    const approval = await this.#ctx.read((s) => s.approvals.byId(id));
    if (approval !== undefined && approval.state === 'pending' && approval.expiresAt <= this.#ctx.nowIso())
      await expireDue(this.#ctx);
    return this.#ctx.read((s) => this.#ctx.viewById(s, id));
  }

  async list(filter: ApprovalFilter = {}): Promise<ApprovalView[]> {
    await expireDue(this.#ctx);
    return this.#ctx.read(async (s) => this.#ctx.views(s, await s.approvals.list(filter)));
  }

  async listAll(state: ApprovalState): Promise<ApprovalView[]> {
    await expireDue(this.#ctx);
    const approvals = await this.#all(state);
    return this.#ctx.read((s) => this.#ctx.views(s, approvals));
  }

  /**
   * Every approval in a state, newest first, page after page of the `(state, created_at)` index,
   * each starting after the last of the one before: one opened or decided in between moves none of
   * the others out of view, and none is seen twice.
   */
  async #all(state: ApprovalState): Promise<Approval[]> {
    const found: Approval[] = [];
    for (let after: ApprovalFilter['after']; ; ) {
      const page = await this.#ctx.read((s) =>
        s.approvals.list({ state, limit: MAX_LIST_LIMIT, ...optional('after', after) }),
      );
      found.push(...page);
      const last = page.at(-1);
      if (last === undefined || page.length < MAX_LIST_LIMIT) return found;
      after = { id: last.id, createdAt: last.createdAt };
    }
  }

  /**
   * Every pending approval, lightly (the reminders' poll, every 30 s in `serve`): no votes, no
   * expiry sweep; all of them, however many. Each with its rule's reminder, found by the rule label
   * it keeps in the policy in force now.
   */
  async waiting(): Promise<WaitingApproval[]> {
    const policy = this.#ctx.deps.policy.current();
    const waiting = (await this.#all('pending')).map(
      (approval): WaitingApproval => ({
        id: approval.id,
        createdAt: approval.createdAt,
        attempt: approval.attempt,
        attemptStartedAt: approval.attempt === 1 ? approval.createdAt : approval.updatedAt,
        expiresAt: approval.expiresAt,
        reminderMs: reminderOfRule(policy, approval.policyRule),
      }),
    );
    // Oldest first: the longest waiting are reminded first.
    return waiting.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Marks every pending approval past its deadline `expired` (also done lazily on open, get, list). */
  expireStale(): Promise<number> {
    return expireDue(this.#ctx);
  }

  /** Asks the service about sent money whose status is due (short-lived processes call it on reads). */
  settleDue(limit?: number): Promise<number> {
    return settleDue(this.#ctx, limit);
  }

  onEvent(listener: ApprovalListener): () => void {
    return this.#ctx.onEvent(listener);
  }

  /** What is being executed now, oldest change first: by whom, and until when its lease holds. */
  async executing(): Promise<Execution[]> {
    const rows = await this.#ctx.read((s) => s.approvals.unfinished());
    return rows.flatMap((a): Execution[] =>
      a.state === 'approved' || a.state === 'executing'
        ? [
            {
              id: a.id,
              tool: a.tool,
              state: a.state,
              ...optional('owner', a.owner ?? undefined),
              ...optional('leaseUntil', a.leaseUntil ?? undefined),
              since: a.updatedAt,
              requestId: a.requestId,
              attempt: a.attempt,
              sends: a.sends,
            },
          ]
        : [],
    );
  }

  /** One approval's changes, oldest first (`approvals show` says who took it over, and why). */
  history(id: string): Promise<ApprovalEvent[]> {
    return this.#ctx.read((s) => s.feed.ofApproval(id));
  }

  /**
   * Follows the feed as a named consumer: in order, at least once, resumable; with `group`, one
   * replica at a time where the store shares groups (follow.ts).
   */
  follow(options: FollowOptions): FeedFollower {
    return followFeed(
      this.#ctx.feed,
      (listener) => this.#ctx.onEvent(listener),
      { ...optional('log', this.#ctx.deps.log), ...options },
      this.#ctx.deps.feedSharing,
    );
  }

  /**
   * The work of a long-running process: approvals expire at their deadline without anyone reading
   * them (a timer set to the next deadline), and, as jobs of the process's scheduler, sent money is
   * followed to its final status and approvals whose holder's lease ran out are taken over.
   * (Background re-sends start by themselves when a send's outcome is unknown and the engine has a
   * `resendWindowMs`; stopping lets their approvals go.) Short commands do none of it (they expire
   * lazily, settle what is due when they read, and recover at start).
   */
  startBackground(scheduler: Scheduler, onError: (error: unknown) => void, onAnswered?: () => void): void {
    this.#ctx.closing = false;
    this.#expiry ??= startExpiryTimer(this.#ctx, onError, onAnswered);
    this.#scheduler = scheduler;
    if (!scheduler.has(SETTLEMENT_JOB))
      scheduler.every(settlementJob(this.#ctx, onError, this.#ctx.deps.settlePassMs));
    if (!scheduler.has(RECOVERY_JOB)) scheduler.every(recoveryJob(this.#ctx, onError));
  }

  /**
   * Stops the expiry timer, the engine's jobs and every background re-send, letting their approvals
   * go. From its start, an unknown outcome (a vote arriving meanwhile) is let go too instead of
   * re-sent in the background.
   */
  async stopBackground(): Promise<void> {
    this.#ctx.closing = true;
    await this.#expiry?.stop();
    this.#expiry = undefined;
    await this.#scheduler?.remove(SETTLEMENT_JOB);
    await this.#scheduler?.remove(RECOVERY_JOB);
    this.#scheduler = undefined;
    await stopResending(this.#ctx);
  }
}
