import { randomUUID } from 'node:crypto';
import type { AuditLog } from '../audit/index.js';
import type { ServiceClient } from '../client/index.js';
import { type Clock, systemClock } from '../clock.js';
import type { Db } from '../db.js';
import { internalError } from '../errors.js';
import type { Logger } from '../log.js';
import { optional } from '../optional.js';
import type { PayeeDirectory } from '../payees.js';
import type { PolicyStore } from '../policy/store.js';
import type { Actor } from '../policy/types.js';
import { redact } from '../redact.js';
import type { Registry } from '../registry.js';
import { actorName, memoryCheckpoints, onceWith } from '../run-tool.js';
import type { AnyTool, ToolContext, ToolDefaults } from '../tool.js';
import type { ServiceWebhooks } from '../webhooks.js';
import { ApprovalFeed } from './feed.js';
import { defaultOwner } from './owner.js';
import type { RowSettings } from './rows.js';
import { migrateApprovals } from './schema.js';
import type { StepUpGate } from './step-up.js';
import { type ApprovalRow, ApprovalStore } from './store.js';
import type { ApprovalListener } from './types.js';
import { viewOf } from './view.js';
import type { ApprovalEvent, ApprovalEventKind, ApprovalView } from './view-schema.js';

export interface ApprovalEngineOptions {
  db: Db;
  audit: AuditLog;
  policy: Pick<PolicyStore, 'current'>;
  registry: Registry;
  client: ServiceClient;
  defaults: ToolDefaults;
  /** The payees bankops created, for previews that name the payee. */
  payees?: PayeeDirectory;
  /** Where the service delivers events, and its keys (an approved event relay runs with them). */
  webhooks?: ServiceWebhooks;
  /** How long a pending approval waits for its quorum. */
  ttlSeconds: number;
  /** How much a fresh quote may be worse than the quote approvers saw, in percent (fixed per approval). */
  tolerancePercent: number;
  /** The time approvals read and their timers run on (expiry, settlement follow-up, re-sends). */
  clock?: Clock;
  /** Who this process is, for executing approvals; `${hostname}:${pid}` by default. */
  owner?: string;
  /** How long an executing approval is held before a process on another host may take it over. */
  leaseSeconds?: number;
  /**
   * Pauses before sending an execution again when its outcome is unknown (timeout, 5xx…); same
   * request id each time. After the last, the approval is `unresolved`: a person reconciles it.
   */
  resendDelaysMs?: readonly number[];
  /** How often a long-running process asks the service about money it sent (default 1 s). */
  settlePassMs?: number;
  /** Sends of one attempt across all processes and restarts before it is `unresolved` (default 6). */
  maxSends?: number;
  /** Checks the passkey assertions of votes under step-up rules (src/core/passkeys). */
  stepUp?: StepUpGate;
  /** A listener threw; the decision stands regardless. Logged by default. */
  onListenerError?: (error: unknown) => void;
  log?: Logger;
}

const DEFAULT_LEASE_SECONDS = 15 * 60;
const DEFAULT_RESEND_DELAYS_MS = [1000, 4000];
const DEFAULT_MAX_SENDS = 6;

/** What every step of the engine shares: the store, the feed, the clock, and who to tell. */
export class EngineContext {
  readonly deps: ApprovalEngineOptions;
  readonly store: ApprovalStore;
  readonly feed: ApprovalFeed;
  readonly owner: string;
  readonly leaseMs: number;
  readonly resendDelays: readonly number[];
  readonly maxSends: number;
  readonly clock: Clock;
  readonly #listeners = new Set<ApprovalListener>();
  /** Events appended by the transaction in progress, told to listeners once it has committed. */
  #pending: ApprovalEvent[] = [];
  #depth = 0;

  constructor(deps: ApprovalEngineOptions) {
    if (!(deps.ttlSeconds > 0)) throw new RangeError('ApprovalEngine: ttlSeconds must be positive');
    if (!(deps.tolerancePercent >= 0 && deps.tolerancePercent <= 100)) {
      throw new RangeError('ApprovalEngine: tolerancePercent must be between 0 and 100');
    }
    migrateApprovals(deps.db);
    this.deps = deps;
    this.store = new ApprovalStore(deps.db);
    this.feed = new ApprovalFeed(deps.db);
    this.clock = deps.clock ?? systemClock;
    this.owner = deps.owner ?? defaultOwner();
    this.leaseMs = (deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
    this.resendDelays = deps.resendDelaysMs ?? DEFAULT_RESEND_DELAYS_MS;
    this.maxSends = deps.maxSends ?? DEFAULT_MAX_SENDS;
  }

  now(): Date {
    return this.clock.now();
  }

  nowIso(): string {
    return this.clock.now().toISOString();
  }

  /**
   * One `BEGIN IMMEDIATE` transaction: processes sharing the file serialise on SQLite's write lock.
   * The feed events it appended are told to this process's listeners after it commits, and
   * forgotten if it rolls back.
   */
  transaction<T>(work: () => T): T {
    const mark = this.#pending.length;
    this.#depth += 1;
    let result: T;
    try {
      result = this.deps.db.transaction(work).immediate();
    } catch (error) {
      this.#pending.length = mark;
      throw error;
    } finally {
      this.#depth -= 1;
    }
    if (this.#depth === 0) this.#publish();
    return result;
  }

  /** Appends a change of `id` to the feed, inside the caller's transaction; the state is read back. */
  record(
    id: string,
    kind: ApprovalEventKind,
    by: { actor?: { id: string }; person?: string; detail?: string } = {},
  ): void {
    const row = this.store.byId(id);
    if (row === undefined) throw internalError(`approval ${id} vanished inside its transaction`);
    const event = this.feed.append({
      approvalId: id,
      kind,
      at: this.nowIso(),
      state: row.state,
      attempt: row.attempt,
      ...(by.actor === undefined ? {} : { actor: by.actor.id }),
      ...optional('person', by.person),
      ...optional('detail', by.detail),
    });
    this.#pending.push(event);
  }

  onEvent(listener: ApprovalListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #publish(): void {
    const events = this.#pending;
    this.#pending = [];
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          // The change is committed; a failing listener must not undo it or stop the others.
          if (this.deps.onListenerError !== undefined) this.deps.onListenerError(error);
          else
            this.deps.log?.error('approval listener failed', {
              error,
            });
        }
      }
    }
  }

  view(row: ApprovalRow): ApprovalView {
    const secretFields = this.deps.registry.get(row.tool)?.secretFields ?? [];
    return viewOf(row, this.store.votes(row.id, row.attempt), secretFields);
  }

  viewById(id: string): ApprovalView | undefined {
    const row = this.store.byId(id);
    return row === undefined ? undefined : this.view(row);
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
    };
  }
}
