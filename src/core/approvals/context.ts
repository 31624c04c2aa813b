import { randomUUID } from 'node:crypto';
import type { AlertBook } from '../alerts/book.js';
import type { AuditLog } from '../audit/index.js';
import type { ServiceClient } from '../client/index.js';
import { type Clock, systemClock } from '../clock.js';
import { internalError } from '../errors.js';
import type { Logger } from '../log.js';
import { optional } from '../optional.js';
import type { PayeeDirectory } from '../payees.js';
import type { PolicyChanges } from '../policy/changes.js';
import type { PolicyStore } from '../policy/store.js';
import type { Actor } from '../policy/types.js';
import { redact } from '../redact.js';
import type { Registry } from '../registry.js';
import { actorName, memoryCheckpoints, onceWith } from '../run-tool.js';
import type { Storage, Stores, Tx, TxOptions } from '../store/index.js';
import type { AnyTool, ToolContext, ToolDefaults } from '../tool.js';
import { RELEASING_STATES } from '../totals/store.js';
import type { ServiceWebhooks } from '../webhooks.js';
import type { Approval } from './approval.js';
import { type ApprovalAuditEntry, auditApproval } from './audit.js';
import type { BreakGlassReview } from './break-glass-store.js';
import type { FeedReader, FeedSharing } from './follow.js';
import { defaultOwner } from './owner.js';
import { standing } from './quorum.js';
import type { RowSettings } from './rows.js';
import type { StepUpGate } from './step-up.js';
import type { Takeover } from './takeover.js';
import type { ApprovalListener } from './types.js';
import { viewOf } from './view.js';
import type { ApprovalEvent, ApprovalEventKind, ApprovalView } from './view-schema.js';

export interface ApprovalEngineOptions {
  /** Where approvals, their votes, the feed and the audit chain live (one transaction for a change). */
  storage: Storage;
  audit: AuditLog;
  /** The policy in force, and its version in the store (`stamp`) where one is kept. */
  policy: Pick<PolicyStore, 'current'> & Partial<Pick<PolicyStore, 'stamp'>>;
  registry: Registry;
  client: ServiceClient;
  defaults: ToolDefaults;
  /** The payees bankops created, for previews that name the payee. */
  payees?: PayeeDirectory;
  /** Where the service delivers events, and its keys (an approved event relay runs with them). */
  webhooks?: ServiceWebhooks;
  /** The balance alerts (an approved alert tool runs with them). */
  alerts?: AlertBook;
  /** The governed policy's changes (an approved `propose_policy` runs with them; its preview reads them). */
  policyChanges?: PolicyChanges;
  /** How long a pending approval waits for its quorum. */
  ttlSeconds: number;
  /** How much a fresh quote may be worse than the quote approvers saw, in percent (fixed per approval). */
  tolerancePercent: number;
  /** The time approvals read and their timers run on (expiry, settlement follow-up, re-sends). */
  clock?: Clock;
  /** Who this process is, for executing approvals; `${hostname}:${pid}` by default. */
  owner?: string;
  /**
   * How long an executing approval is held without news from its holder (renewed while it runs)
   * before another process may take it over; 30 s by default.
   */
  leaseSeconds?: number;
  /**
   * Pauses before sending an execution again when its outcome is unknown (timeout, 5xx…); same
   * request id each time. After the last, the approval is `unresolved`: a person reconciles it.
   */
  resendDelaysMs?: readonly number[];
  /**
   * A long-running process only: how long an execution whose outcome stays unknown is re-sent in
   * the background (same request id, backing off) before it is `unresolved`. Without it, the
   * `resendDelaysMs` pauses are waited for by the caller and the approval is then `unresolved`.
   */
  resendWindowMs?: number;
  /** How often a long-running process asks the service about money it sent (default 1 s). */
  settlePassMs?: number;
  /** Sends of one attempt across all processes and restarts before it is `unresolved` (default 6). */
  maxSends?: number;
  /**
   * Wake-ups from other replicas' commits and consumer groups, where the store shares them across
   * hosts (PostgreSQL); followers poll, each process for itself, without it.
   */
  feedSharing?: FeedSharing;
  /** Checks the passkey assertions of votes under step-up rules (src/core/passkeys). */
  stepUp?: StepUpGate;
  /** This process took over an execution whose holder's lease ran out (the metrics count it). */
  onTakenOver?: (takeover: Takeover) => void;
  /** A listener threw; the decision stands regardless. Logged by default. */
  onListenerError?: (error: unknown) => void;
  log?: Logger;
}

const DEFAULT_LEASE_SECONDS = 30;
const DEFAULT_RESEND_DELAYS_MS = [1000, 4000];
const DEFAULT_MAX_SENDS = 6;

/** What every step of the engine shares: the storage, the clock, and who to tell. */
export class EngineContext {
  readonly deps: ApprovalEngineOptions;
  readonly owner: string;
  readonly leaseMs: number;
  readonly resendDelays: readonly number[];
  readonly maxSends: number;
  readonly resendWindowMs: number | undefined;
  /** Approvals this process is executing now (its recovery leaves them alone). */
  readonly running = new Set<string>();
  /** Approvals this process re-sends in the background while the service does not answer. */
  readonly resending = new Map<string, { stop(): Promise<void> }>();
  /**
   * The engine is stopping (`stopBackground` began): an unknown outcome is no longer handed to a
   * background re-send, which nothing would stop; its approval is let go for recovery instead.
   */
  closing = false;
  /** The feed as front ends read it (each call its own read or transaction). */
  readonly feed: FeedReader;
  readonly #listeners = new Set<ApprovalListener>();
  readonly clock: Clock;

  constructor(deps: ApprovalEngineOptions) {
    if (!(deps.ttlSeconds > 0)) throw new RangeError('ApprovalEngine: ttlSeconds must be positive');
    if (!(deps.tolerancePercent >= 0 && deps.tolerancePercent <= 100)) {
      throw new RangeError('ApprovalEngine: tolerancePercent must be between 0 and 100');
    }
    this.deps = deps;
    this.clock = deps.clock ?? systemClock;
    this.owner = deps.owner ?? defaultOwner();
    this.leaseMs = (deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
    this.resendDelays = deps.resendDelaysMs ?? DEFAULT_RESEND_DELAYS_MS;
    this.maxSends = deps.maxSends ?? DEFAULT_MAX_SENDS;
    this.resendWindowMs =
      deps.resendWindowMs !== undefined && deps.resendWindowMs > 0 ? deps.resendWindowMs : undefined;
    const { storage } = deps;
    this.feed = {
      after: (seq, limit) => storage.read((s) => s.feed.after(seq, limit)),
      head: () => storage.read((s) => s.feed.head()),
      cursor: (consumer) => storage.read((s) => s.feed.cursor(consumer)),
      advance: (consumer, seq) =>
        storage.transaction((tx) => tx.feed.advance(consumer, seq, new Date().toISOString())),
    };
  }

  now(): Date {
    return this.clock.now();
  }

  nowIso(): string {
    return this.clock.now().toISOString();
  }

  /**
   * One write transaction (processes sharing the store serialise on it). The feed events it
   * appended are told to this process's listeners after it commits, and forgotten if it rolls back.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T> {
    return this.deps.storage.transaction(work, options);
  }

  /** Reads committed state, as of one moment. */
  read<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    return this.deps.storage.read(work);
  }

  /** Appends a change of `id` to the feed, inside the caller's transaction; the state is read back. */
  async record(
    tx: Tx,
    id: string,
    kind: ApprovalEventKind,
    by: { actor?: { id: string }; person?: string; detail?: string } = {},
  ): Promise<void> {
    const row = await tx.approvals.byId(id);
    if (row === undefined) throw internalError(`approval ${id} vanished inside its transaction`);
    // Every change of state is recorded here: one that ends without money moving releases its hold.
    if (RELEASING_STATES.has(row.state)) await tx.holds.releaseApproval(id, this.now().getTime());
    const event = await tx.feed.append({
      approvalId: id,
      kind,
      at: this.nowIso(),
      state: row.state,
      attempt: row.attempt,
      ...optional('actor', by.actor?.id),
      ...optional('person', by.person),
      ...optional('detail', by.detail),
    });
    tx.afterCommit(() => this.#tell(event));
  }

  /** One entry of an approval's life, in the caller's transaction: both commit or neither. */
  async audit(tx: Tx, entry: ApprovalAuditEntry): Promise<void> {
    await auditApproval(this.deps.audit, tx, entry);
  }

  onEvent(listener: ApprovalListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #tell(event: ApprovalEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // The change is committed; a failing listener must not undo it or stop the others.
        if (this.deps.onListenerError !== undefined) this.deps.onListenerError(error);
        else this.deps.log?.error('approval listener failed', { error });
      }
    }
  }

  async view(stores: Stores, approval: Approval): Promise<ApprovalView> {
    return this.#view(stores, approval, await stores.breakGlass.byApproval(approval.id));
  }

  /** The views of many (a listing): their break-glass reviews in one read. */
  async views(stores: Stores, approvals: readonly Approval[]): Promise<ApprovalView[]> {
    const reviews = new Map(
      (await stores.breakGlass.byApprovals(approvals.map((a) => a.id))).map((r) => [r.approvalId, r]),
    );
    const views: ApprovalView[] = [];
    for (const approval of approvals)
      views.push(await this.#view(stores, approval, reviews.get(approval.id)));
    return views;
  }

  async #view(
    stores: Stores,
    approval: Approval,
    breakGlass: BreakGlassReview | undefined,
  ): Promise<ApprovalView> {
    const secretFields = this.deps.registry.get(approval.tool)?.secretFields ?? [];
    const votes = await stores.approvals.votes(approval.id, approval.attempt);
    // A quorum from groups says how far each group is, judged under the policy in force.
    const groups =
      approval.groups === null ? undefined : standing(this.deps.policy.current(), approval, votes).groups;
    return viewOf(approval, votes, secretFields, groups, breakGlass);
  }

  async viewById(stores: Stores, id: string): Promise<ApprovalView | undefined> {
    const approval = await stores.approvals.byId(id);
    return approval === undefined ? undefined : this.view(stores, approval);
  }

  auditInput(tool: AnyTool | string, input: unknown): unknown {
    const definition = typeof tool === 'string' ? this.deps.registry.get(tool) : tool;
    return redact(input, definition?.secretFields ?? []);
  }

  settings(): RowSettings {
    return {
      now: this.now(),
      ttlSeconds: this.deps.ttlSeconds,
      tolerancePercent: this.deps.tolerancePercent,
    };
  }

  leaseUntil(): string {
    return new Date(this.now().getTime() + this.leaseMs).toISOString();
  }

  /**
   * The context of a tool's `preview`, `check` and `settle`: they read the service, nothing is
   * executed or kept (checkpoints live in memory, the request id is new each time).
   */
  readContext(actor: Actor, onProgress?: (message: string) => void): ToolContext {
    const checkpoints = memoryCheckpoints();
    return {
      client: this.deps.client,
      defaults: this.deps.defaults,
      actorName: actorName(actor),
      requestId: randomUUID(),
      once: onceWith(checkpoints),
      progress: (message) => onProgress?.(message),
      ...optional('payees', this.deps.payees),
      ...optional('policyChanges', this.deps.policyChanges),
    };
  }
}
