import type { AuditLog } from '../audit/index.js';
import type { ServiceClient } from '../client/index.js';
import type { Db } from '../db.js';
import { checkApprover } from '../policy/actors.js';
import type { PolicyStore } from '../policy/store.js';
import type { Actor } from '../policy/types.js';
import { redact } from '../redact.js';
import type { Registry } from '../registry.js';
import type { ExecuteResult } from '../results.js';
import { type RunOutcome, runTool, secretsOf, toFailure } from '../run-tool.js';
import type { AnyTool, Preview, ToolDefaults } from '../tool.js';
import { auditApproval, SYSTEM_ACTOR } from './audit.js';
import { durableCheckpoints } from './checkpoints.js';
import { defaultOwner, executingHere, ownerIsGone } from './owner.js';
import { previewContext } from './preview-context.js';
import { newApprovalRow, type RowSettings } from './rows.js';
import { migrateApprovals } from './schema.js';
import { settlement } from './settlement.js';
import { type ApprovalRow, ApprovalStore } from './store.js';
import type {
  ApprovalActionResult,
  ApprovalFilter,
  ApprovalListener,
  ApprovalService,
  ApprovalView,
  OpenApprovalRequest,
} from './types.js';
import { isUnsettled } from './unsettled.js';
import { requesterOf, viewOf } from './view.js';

export interface ApprovalEngineOptions {
  db: Db;
  audit: AuditLog;
  policy: Pick<PolicyStore, 'current'>;
  registry: Registry;
  client: ServiceClient;
  defaults: ToolDefaults;
  /** How long a pending approval waits for its quorum. */
  ttlSeconds: number;
  /** How much a fresh quote's debit may exceed the quote approvers saw, in percent (fixed per approval). */
  tolerancePercent: number;
  now?: () => Date;
  /** Who this process is, for executing approvals; `${hostname}:${pid}` by default. */
  owner?: string;
  /** How long an executing approval is held before a process on another host may take it over. */
  leaseSeconds?: number;
  /**
   * Pauses before sending an execution again when its outcome is unknown (timeout, 5xx…); same
   * request id each time. After the last, the approval stays `executing` for `recover()`.
   */
  resendDelaysMs?: readonly number[];
  /** A listener threw; the decision stands regardless. A process warning by default. */
  onListenerError?: (error: unknown) => void;
}

type ChangeEvent = Parameters<ApprovalListener>[0];

/** What a transaction decided, and whom to tell once it has committed. */
interface Step<T> {
  result: T;
  events: ChangeEvent[];
}

const DEFAULT_LEASE_SECONDS = 15 * 60;
const DEFAULT_RESEND_DELAYS_MS = [500, 2000];

const refused = (reason: string, approval?: ApprovalView): ApprovalActionResult =>
  approval === undefined ? { status: 'refused', reason } : { status: 'refused', reason, approval };

const notFound = (id: string): ApprovalActionResult => ({ status: 'not_found', reason: `no approval ${id}` });

/**
 * Approvals in SQLite (DESIGN decisions 4 and 5). Every state change is one `BEGIN IMMEDIATE`
 * transaction with its audit entry, so processes sharing the file agree on who won; the service is
 * only called outside transactions, by the one caller that moved the approval to `executing`.
 */
export class ApprovalEngine implements ApprovalService {
  readonly owner: string;
  readonly #deps: ApprovalEngineOptions;
  readonly #store: ApprovalStore;
  readonly #listeners = new Set<ApprovalListener>();
  readonly #now: () => Date;
  readonly #leaseMs: number;
  readonly #resendDelays: readonly number[];

  constructor(deps: ApprovalEngineOptions) {
    if (!(deps.ttlSeconds > 0)) throw new RangeError('ApprovalEngine: ttlSeconds must be positive');
    if (!(deps.tolerancePercent >= 0 && deps.tolerancePercent <= 100)) {
      throw new RangeError('ApprovalEngine: tolerancePercent must be between 0 and 100');
    }
    migrateApprovals(deps.db);
    this.#deps = deps;
    this.#store = new ApprovalStore(deps.db);
    this.#now = deps.now ?? (() => new Date());
    this.owner = deps.owner ?? defaultOwner();
    this.#leaseMs = (deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
    this.#resendDelays = deps.resendDelaysMs ?? DEFAULT_RESEND_DELAYS_MS;
  }

  // Opening

  async open(request: OpenApprovalRequest): Promise<ExecuteResult> {
    const { tool, input, actor } = request;
    this.expireStale();
    const joined = this.#transaction(() => this.#join(request));
    if (joined !== undefined) return joined;

    let preview: Preview | undefined;
    if (tool.preview !== undefined) {
      try {
        preview = await tool.preview(input, previewContext(this.#deps, actor, request.onProgress));
      } catch (error) {
        const failure = toFailure(error, secretsOf(tool, input));
        auditApproval(this.#deps.audit, {
          actor,
          tool: tool.name,
          input: this.#auditInput(tool, input),
          event: 'requested',
          decision: 'approval_required',
          approvalId: null,
          outcome: 'failed',
          error: `could not prepare the approval: ${failure.message}`,
        });
        return { status: 'failed', tool: tool.name, error: failure };
      }
    }

    const row = newApprovalRow(request, preview, this.#settings());
    const step = this.#transaction((): Step<ExecuteResult | undefined> => {
      // An identical request may have opened one while we were quoting: join it instead.
      const raced = this.#join(request);
      if (raced !== undefined) return { result: raced, events: [] };
      this.#store.insert(row);
      auditApproval(this.#deps.audit, {
        actor,
        tool: tool.name,
        input: this.#auditInput(tool, input),
        event: 'requested',
        decision: 'approval_required',
        approvalId: row.id,
        requestId: row.request_id,
        outcome: 'pending',
      });
      return { result: undefined, events: [{ type: 'opened', approval: this.#viewOfRow(row) }] };
    });
    this.#emit(step.events);
    if (step.result !== undefined) return step.result;
    const approval = this.#viewOfRow(row);
    return { status: 'pending_approval', tool: tool.name, approvalId: row.id, approval };
  }

  /** The open approval this request repeats (AI assistants retry), or a keyed retry's first result. */
  #join(request: OpenApprovalRequest): ExecuteResult | undefined {
    const { tool, actor, fingerprint, idempotencyKey: key } = request;
    let found: ApprovalRow | undefined;
    if (key !== undefined) {
      found = this.#store.byKey(actor.id, tool.name, key);
      if (found !== undefined && found.fingerprint !== fingerprint) {
        const message = `idempotency key '${key}' was already used for a different ${tool.name} input (approval ${found.id})`;
        return { status: 'invalid', tool: tool.name, message, errors: [{ path: '', message }] };
      }
      if (found?.state === 'succeeded') {
        const output = JSON.parse(found.result_json ?? '{}') as Record<string, unknown>;
        return { status: 'ok', tool: tool.name, output, requestId: found.request_id };
      }
    }
    found ??= this.#store.openByFingerprint(fingerprint);
    if (found === undefined) return undefined;
    auditApproval(this.#deps.audit, {
      actor,
      tool: tool.name,
      input: this.#auditInput(tool, request.input),
      event: 'requested',
      decision: 'approval_required',
      approvalId: found.id,
      requestId: found.request_id,
      outcome: 'pending',
    });
    return {
      status: 'pending_approval',
      tool: tool.name,
      approvalId: found.id,
      approval: this.#viewOfRow(found),
    };
  }

  // Deciding

  /** Every call is audited, refused ones too: who tried to approve, reject or cancel what, and why not. */
  #auditRefusal(actor: Actor, result: ApprovalActionResult): ApprovalActionResult {
    if (result.status !== 'refused' || result.approval === undefined) return result;
    const approval = result.approval;
    auditApproval(this.#deps.audit, {
      actor,
      tool: approval.tool,
      input: approval.input,
      event: 'decided',
      decision: 'refused',
      approvalId: approval.id,
      requestId: approval.requestId,
      outcome: 'failed',
      error: result.reason,
    });
    return result;
  }

  async approve(id: string, approver: Actor): Promise<ApprovalActionResult> {
    const step = this.#transaction(() => this.#vote(id, approver));
    this.#emit(step.events);
    if (step.result !== 'execute') return this.#auditRefusal(approver, step.result);
    // This caller completed the quorum: it executes, and waits for the outcome.
    await this.#execute(id);
    const approval = this.get(id);
    return approval === undefined ? notFound(id) : { status: 'ok', approval };
  }

  #vote(id: string, approver: Actor): Step<ApprovalActionResult | 'execute'> {
    const events: ChangeEvent[] = [];
    const row = this.#current(id, events);
    if (row === undefined) return { result: notFound(id), events };
    if (row.state !== 'pending') {
      return { result: refused(`approval ${id} is ${row.state}, not pending`, this.#viewOfRow(row)), events };
    }
    const check = checkApprover(this.#deps.policy.current(), {
      approver,
      requester: requesterOf(row),
      approverRole: row.approver_role,
    });
    if (!check.ok) return { result: refused(check.reason, this.#viewOfRow(row)), events };
    if (this.#store.hasVoted(id, approver.id, row.attempt)) {
      const reason = `${approver.id} already approved ${id}; each approver counts once (${row.required_approvers} distinct approvers needed)`;
      return { result: refused(reason, this.#viewOfRow(row)), events };
    }

    const now = this.#now().toISOString();
    this.#store.addVote(id, approver.id, JSON.stringify(approver), row.attempt, now);
    auditApproval(this.#deps.audit, {
      actor: approver,
      tool: row.tool,
      input: this.#auditInput(row.tool, JSON.parse(row.input_json)),
      event: 'decided',
      decision: 'approved',
      approvalId: id,
      requestId: row.request_id,
    });
    const quorum = this.#store.countVotes(id, row.attempt) >= row.required_approvers;
    // pending → approved → executing in one commit: `executing` with its owner is on disk
    // (synchronous=FULL) before anything is sent, and exactly one vote can make this change.
    const changes: Partial<ApprovalRow> = quorum
      ? { state: 'executing', owner: this.owner, lease_until: this.#leaseUntil(), updated_at: now }
      : { updated_at: now };
    if (!this.#store.update(id, { state: 'pending' }, changes))
      throw new Error(`approval ${id} changed under a write lock`);
    const updated = this.#store.byId(id)!;
    events.push({ type: 'updated', approval: this.#viewOfRow(updated) });
    return { result: quorum ? 'execute' : { status: 'ok', approval: this.#viewOfRow(updated) }, events };
  }

  reject(id: string, approver: Actor, reason: string): ApprovalActionResult {
    if (reason.trim() === '')
      return refused('a rejection needs a reason, for the requester and the audit log');
    const step = this.#transaction((): Step<ApprovalActionResult> => {
      const events: ChangeEvent[] = [];
      const row = this.#current(id, events);
      if (row === undefined) return { result: notFound(id), events };
      if (row.state !== 'pending') {
        return {
          result: refused(`approval ${id} is ${row.state}, not pending`, this.#viewOfRow(row)),
          events,
        };
      }
      const requester = requesterOf(row);
      if (approver.id === requester.id) {
        return {
          result: refused(`${approver.id} requested ${id}; to withdraw it, cancel it`, this.#viewOfRow(row)),
          events,
        };
      }
      const check = checkApprover(this.#deps.policy.current(), {
        approver,
        requester,
        approverRole: row.approver_role,
      });
      if (!check.ok) return { result: refused(check.reason, this.#viewOfRow(row)), events };
      return this.#close(row, 'rejected', approver, reason.trim(), events);
    });
    this.#emit(step.events);
    return this.#auditRefusal(approver, step.result);
  }

  cancel(id: string, actor: Actor, reason?: string): ApprovalActionResult {
    const step = this.#transaction((): Step<ApprovalActionResult> => {
      const events: ChangeEvent[] = [];
      const row = this.#current(id, events);
      if (row === undefined) return { result: notFound(id), events };
      if (actor.id !== row.requester_id) {
        return {
          result: refused(`only the requester (${row.requester_id}) can cancel ${id}`, this.#viewOfRow(row)),
          events,
        };
      }
      if (row.state !== 'pending') {
        return {
          result: refused(
            `approval ${id} is ${row.state}; only a pending one can be cancelled`,
            this.#viewOfRow(row),
          ),
          events,
        };
      }
      const why = reason?.trim() ? reason.trim() : 'cancelled by the requester';
      return this.#close(row, 'cancelled', actor, why, events);
    });
    this.#emit(step.events);
    return this.#auditRefusal(actor, step.result);
  }

  /** pending → rejected | cancelled, with its audit entry. */
  #close(
    row: ApprovalRow,
    state: 'rejected' | 'cancelled',
    actor: Actor,
    reason: string,
    events: ChangeEvent[],
  ): Step<ApprovalActionResult> {
    const now = this.#now().toISOString();
    const changes = { state, decided_by: actor.id, decision_reason: reason, updated_at: now };
    if (!this.#store.update(row.id, { state: 'pending' }, changes))
      throw new Error(`approval ${row.id} changed under a write lock`);
    auditApproval(this.#deps.audit, {
      actor,
      tool: row.tool,
      input: this.#auditInput(row.tool, JSON.parse(row.input_json)),
      event: 'decided',
      decision: state,
      approvalId: row.id,
      requestId: row.request_id,
      outcome: 'failed',
      error: `${state} by ${actor.id}: ${reason}`,
    });
    const approval = this.#viewOfRow(this.#store.byId(row.id)!);
    events.push({ type: 'updated', approval });
    return { result: { status: 'ok', approval }, events };
  }

  // Executing

  /** Runs an approval this process holds (`executing`, our owner) and records the outcome. */
  async #execute(id: string): Promise<void> {
    executingHere.add(id);
    try {
      const delays = this.#resendDelays;
      for (let sent = 0; ; sent += 1) {
        // Read each time: the checkpoints of the previous send (the quote) are in the row.
        const row = this.#store.byId(id);
        if (row === undefined || row.state !== 'executing' || row.owner !== this.owner) return;
        const outcome = await this.#run(row);
        const delay = delays[sent];
        if (outcome.status === 'failed' && isUnsettled(outcome.error) && delay !== undefined) {
          await new Promise((resolve) => setTimeout(resolve, delay));
          continue;
        }
        this.#emit(this.#transaction(() => this.#settle(row, outcome)));
        return;
      }
    } finally {
      executingHere.delete(id);
    }
  }

  async #run(row: ApprovalRow): Promise<RunOutcome> {
    const tool = this.#deps.registry.get(row.tool);
    if (tool === undefined) {
      return {
        status: 'failed',
        error: { message: `the tool ${row.tool} is not in this bankops`, kind: 'internal' },
      };
    }
    const parsed = tool.input.safeParse(JSON.parse(row.input_json));
    if (!parsed.success) {
      const message = `the stored input no longer fits ${tool.name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`;
      return { status: 'failed', error: { message, kind: 'internal' } };
    }
    const approved = row.preview_json === null ? undefined : (JSON.parse(row.preview_json) as Preview);
    return runTool(this.#deps, {
      tool,
      input: parsed.data as Record<string, unknown>,
      actor: requesterOf(row),
      requestId: row.request_id,
      approvalId: row.id,
      ...(approved === undefined ? {} : { approved }),
      checkpoints: durableCheckpoints(this.#store, {
        id: row.id,
        owner: this.owner,
        checkpointsJson: row.checkpoints_json,
      }),
    });
  }

  /** Records the outcome, if this process still holds the approval. */
  #settle(row: ApprovalRow, outcome: RunOutcome): ChangeEvent[] {
    const { changes, reopened } = settlement(row, outcome, {
      ...this.#settings(),
      sends: 1 + this.#resendDelays.length,
      secretFields: this.#deps.registry.get(row.tool)?.secretFields ?? [],
    });
    // Unchanged: our lease ran out and another process took the approval over; its outcome stands.
    if (!this.#store.update(row.id, { state: 'executing', owner: this.owner }, changes)) return [];
    if (reopened !== undefined) {
      auditApproval(this.#deps.audit, {
        actor: requesterOf(row),
        tool: row.tool,
        input: this.#auditInput(row.tool, JSON.parse(row.input_json)),
        event: 'requested',
        decision: 'approval_required',
        approvalId: row.id,
        requestId: reopened.requestId,
        outcome: 'pending',
        error: `back to the approvers: ${reopened.reason}`,
      });
    }
    return [{ type: 'updated', approval: this.#viewOfRow(this.#store.byId(row.id)!) }];
  }

  async recover(): Promise<number> {
    let finished = 0;
    const failures: unknown[] = [];
    for (const row of this.#store.unfinished()) {
      if (!ownerIsGone(row, this.#now())) continue;
      const taken = this.#transaction((): Step<boolean> => {
        const now = this.#now().toISOString();
        const ok = this.#store.update(
          row.id,
          { state: row.state, owner: row.owner },
          { state: 'executing', owner: this.owner, lease_until: this.#leaseUntil(), updated_at: now },
        );
        const events: ChangeEvent[] = ok ? [{ type: 'updated', approval: this.#view(row.id)! }] : [];
        return { result: ok, events };
      });
      this.#emit(taken.events);
      if (!taken.result) continue;
      // Same request id and the recorded checkpoints: the service replays what it already did.
      // One approval that cannot be finished now must not stop the others: it stays `executing`
      // under this owner's lease and is taken up again when the lease runs out or at the next start.
      try {
        await this.#execute(row.id);
        finished += 1;
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) {
      throw new AggregateError(failures, `${failures.length} approval(s) could not be recovered now`);
    }
    return finished;
  }

  // Reading

  byIdempotencyKey(
    requesterId: string,
    tool: string,
    key: string,
  ): { id: string; fingerprint: string } | undefined {
    const row = this.#store.byKey(requesterId, tool, key);
    return row === undefined ? undefined : { id: row.id, fingerprint: row.fingerprint };
  }

  get(id: string): ApprovalView | undefined {
    const row = this.#store.byId(id);
    if (row === undefined || row.state !== 'pending' || row.expires_at > this.#now().toISOString()) {
      return row === undefined ? undefined : this.#viewOfRow(row);
    }
    const step = this.#transaction((): Step<ApprovalRow | undefined> => {
      const events: ChangeEvent[] = [];
      return { result: this.#current(id, events), events };
    });
    this.#emit(step.events);
    return step.result === undefined ? undefined : this.#viewOfRow(step.result);
  }

  list(filter: ApprovalFilter = {}): ApprovalView[] {
    this.expireStale();
    return this.#store.list(filter).map((row) => this.#viewOfRow(row));
  }

  onChange(listener: ApprovalListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Marks every pending approval past its expiry `expired` (lazily: on open, list and get). */
  expireStale(): number {
    // Read first: the write lock is only taken when something is due.
    if (this.#store.pendingPast(this.#now().toISOString()).length === 0) return 0;
    const step = this.#transaction((): Step<number> => {
      const events: ChangeEvent[] = [];
      const due = this.#store.pendingPast(this.#now().toISOString());
      for (const row of due) this.#expire(row, events);
      return { result: due.length, events };
    });
    this.#emit(step.events);
    return step.result;
  }

  // Helpers

  /** The row, expired first if its time is up (inside the caller's transaction). */
  #current(id: string, events: ChangeEvent[]): ApprovalRow | undefined {
    const row = this.#store.byId(id);
    if (row === undefined || row.state !== 'pending' || row.expires_at > this.#now().toISOString())
      return row;
    return this.#expire(row, events);
  }

  #expire(row: ApprovalRow, events: ChangeEvent[]): ApprovalRow {
    const reason = `no quorum of ${row.required_approvers} before ${row.expires_at}`;
    const changes = {
      state: 'expired' as const,
      decided_by: SYSTEM_ACTOR.id,
      decision_reason: reason,
      updated_at: this.#now().toISOString(),
    };
    if (!this.#store.update(row.id, { state: 'pending' }, changes)) return this.#store.byId(row.id)!;
    auditApproval(this.#deps.audit, {
      actor: SYSTEM_ACTOR,
      tool: row.tool,
      input: this.#auditInput(row.tool, JSON.parse(row.input_json)),
      event: 'decided',
      decision: 'expired',
      approvalId: row.id,
      requestId: row.request_id,
      outcome: 'failed',
      error: `expired: ${reason}`,
    });
    const updated = this.#store.byId(row.id)!;
    events.push({ type: 'updated', approval: this.#viewOfRow(updated) });
    return updated;
  }

  #view(id: string): ApprovalView | undefined {
    const row = this.#store.byId(id);
    return row === undefined ? undefined : this.#viewOfRow(row);
  }

  #viewOfRow(row: ApprovalRow): ApprovalView {
    const secretFields = this.#deps.registry.get(row.tool)?.secretFields ?? [];
    return viewOf(row, this.#store.votes(row.id, row.attempt), secretFields);
  }

  #auditInput(tool: AnyTool | string, input: unknown): unknown {
    const definition = typeof tool === 'string' ? this.#deps.registry.get(tool) : tool;
    return redact(input, definition?.secretFields ?? []);
  }

  #settings(): RowSettings {
    return {
      now: this.#now(),
      ttlSeconds: this.#deps.ttlSeconds,
      tolerancePercent: this.#deps.tolerancePercent,
    };
  }

  #leaseUntil(): string {
    return new Date(this.#now().getTime() + this.#leaseMs).toISOString();
  }

  #transaction<T>(work: () => T): T {
    return this.#deps.db.transaction(work).immediate();
  }

  #emit(events: readonly ChangeEvent[]): void {
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          // The decision is committed; a failing front end must not undo it or stop the others.
          const report =
            this.#deps.onListenerError ??
            ((e: unknown) =>
              process.emitWarning(`approval listener failed: ${e instanceof Error ? e.message : String(e)}`));
          report(error);
        }
      }
    }
  }
}
