import { auditActor } from './actors.js';
import type { AlertBook } from './alerts/book.js';
import type { AuditEntryInput, AuditLog, AuditOutcome } from './audit/index.js';
import { isServiceError, type ServiceClient } from './client/index.js';
import { type Clock, systemClock } from './clock.js';
import { CodedError, ErrorCode, messageOf } from './errors.js';
import { InputError } from './input-error.js';
import type { Logger } from './log.js';
import { optional } from './optional.js';
import type { PayeeDirectory } from './payees.js';
import { personOf } from './policy/actors.js';
import type { PolicyChanges } from './policy/changes.js';
import type { PolicyStore } from './policy/store.js';
import type { Actor } from './policy/types.js';
import { collectSecrets, sanitizeText } from './redact.js';
import type { Failure } from './results.js';
import {
  type AnyTool,
  type ApprovalReader,
  OutsideApprovedBoundError,
  type Preview,
  type ToolContext,
  type ToolDefaults,
} from './tool.js';
import type { ServiceWebhooks } from './webhooks.js';

/** Where a tool's checkpoints (`ctx.once`) are kept: in memory for a direct call, durably for an approval. */
export interface CheckpointStore {
  get(key: string): { value: unknown } | undefined;
  /** Resolves once the value is kept (durably, for an approval) and the tool may go on. */
  set(key: string, value: unknown): Promise<void>;
}

export function memoryCheckpoints(): CheckpointStore {
  const values = new Map<string, unknown>();
  return {
    get: (key) => (values.has(key) ? { value: values.get(key) } : undefined),
    set: async (key, value) => {
      values.set(key, value);
    },
  };
}

/** A tool's `ctx.once` over a checkpoint store: the first call produces and records, a later one reads. */
export function onceWith(checkpoints: CheckpointStore): ToolContext['once'] {
  return async <T>(key: string, produce: () => Promise<T>): Promise<T> => {
    const saved = checkpoints.get(key);
    if (saved !== undefined) return saved.value as T;
    const value = await produce();
    await checkpoints.set(key, value);
    return value;
  };
}

export interface RunDeps {
  client: ServiceClient;
  defaults: ToolDefaults;
  audit: AuditLog;
  log?: Logger;
  /** The executor's approvals, handed to tools as a read-only view. */
  approvals?: ApprovalReader;
  payees?: PayeeDirectory;
  webhooks?: ServiceWebhooks;
  alerts?: AlertBook;
  policyChanges?: PolicyChanges;
  /** Who stands behind an identity (the policy's people), for the payee directory's records. */
  policy?: Pick<PolicyStore, 'current'>;
  clock?: Clock;
  /** Where bankops keeps its records, in the words a "not found" names it (`the SQLite file …`). */
  store?: string;
}

export interface RunRequest {
  tool: AnyTool;
  /** Already validated by the tool's input schema. */
  input: Record<string, unknown>;
  actor: Actor;
  requestId: string;
  approvalId?: string;
  /** The person behind `actor` when the caller knows it (an approval keeps its requester's). */
  person?: string;
  approved?: Preview;
  checkpoints?: CheckpointStore;
  onProgress?: ((message: string) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export type RunOutcome =
  | { status: 'ok'; output: Record<string, unknown> }
  | { status: 'failed'; error: Failure }
  | { status: 'outside_bound'; preview: Preview; error: Failure };

/**
 * Writes an outcome entry; if the audit log refuses it (the database stays locked past its busy
 * timeout), the outcome stands and the loss is logged loudly: the `executing` entry is already on
 * record, and the outcome is in the approval or the caller's result. A write's entry is on disk
 * before the caller hears of it. A read's joins the reads of the next few milliseconds in one
 * commit without an fsync, and the caller does not wait for it (docs/audit.md, "When an entry is
 * on disk").
 */
function recordOutcome(deps: RunDeps, tool: AnyTool, entry: AuditEntryInput): Promise<void> | undefined {
  const extraKeys = tool.secretFields ?? [];
  // A read does not wait (no promise at all; the audit log reports an entry it cannot write); a
  // write waits for its entry on disk.
  if (tool.hints.readOnly) {
    deps.audit.note(entry, { extraKeys });
    return undefined;
  }
  return deps.audit.append(entry, { extraKeys }).then(
    () => undefined,
    (error: unknown) => entryLost(deps, tool, error),
  );
}

/** An entry the audit log refused, said loudly; the outcome stands. */
function entryLost(deps: RunDeps, tool: AnyTool, error: unknown): void {
  deps.log?.error('audit entry could not be written; the outcome stands', { tool: tool.name, error });
}

/** The actor's name as the service should record it in `created_by` / `updated_by`. */
export const actorName = (actor: Actor): string => actor.id;

/** Secret values found in an input, so they can be scrubbed from any message that echoes them. */
export const secretsOf = (tool: AnyTool, value: unknown): string[] =>
  collectSecrets(value, tool.secretFields ?? []);

/** A failure as the executor reports it: the coded error's code and message kept, secrets scrubbed. */
export function toFailure(error: unknown, secrets: readonly string[]): Failure {
  if (error instanceof InputError) {
    const message = sanitizeText(error.message, secrets);
    return { message, kind: ErrorCode.InvalidRequest, issues: [`${error.path}: ${message}`] };
  }
  const coded =
    error instanceof CodedError
      ? error
      : new CodedError({
          code: ErrorCode.Internal,
          message: messageOf(error),
        });
  // The audit log needs a message: a service that refuses without one still gets a reason.
  const text = isServiceError(error) ? error.serviceMessage : coded.message;
  return {
    message: sanitizeText(text, secrets) || `${coded.code} failure without a message`,
    kind: coded.code,
    ...optional('httpStatus', coded.httpStatus),
    ...optional('code', coded.serviceCode),
    ...optional('requestId', coded.requestId),
    ...optional('operation', coded.operation),
    ...(coded.issues.length === 0
      ? {}
      : { issues: coded.issues.map((issue) => sanitizeText(issue, secrets)) }),
    ...(isServiceError(error) && error.attempts > 1 ? { attempts: error.attempts } : {}),
    ...(isServiceError(error) && error.elapsedMs !== undefined
      ? { elapsedMs: Math.round(error.elapsedMs) }
      : {}),
  };
}

/** Only `get` and `list` of the approval service reach a tool, whatever object stands behind them. */
const readOnlyApprovals = (approvals: ApprovalReader): ApprovalReader => ({
  get: (id) => approvals.get(id),
  list: (filter) => approvals.list(filter),
});

const ignoreProgress = (_message: string): void => undefined;

/** `once` over checkpoints in memory, made on first use. */
function onceInMemory(): ToolContext['once'] {
  let once: ToolContext['once'] | undefined;
  return (key, produce) => {
    once ??= onceWith(memoryCheckpoints());
    return once(key, produce);
  };
}

const readOnlyViews = new WeakMap<ApprovalReader, ApprovalReader>();

/** The read-only view of these approvals, made once. */
function readOnlyView(approvals: ApprovalReader): ApprovalReader {
  let view = readOnlyViews.get(approvals);
  if (view === undefined) {
    view = readOnlyApprovals(approvals);
    readOnlyViews.set(approvals, view);
  }
  return view;
}

/**
 * The tool's context for one run. Built field by field: spreading a shared part and optional
 * fields into one literal cost a few microseconds on every call.
 */
function toolContext(deps: RunDeps, req: RunRequest): ToolContext {
  const ctx: ToolContext = {
    client: deps.client,
    defaults: deps.defaults,
    actorName: actorName(req.actor),
    by: {
      actorId: req.actor.id,
      person:
        req.person ?? (deps.policy === undefined ? req.actor.id : personOf(deps.policy.current(), req.actor)),
      frontEnd: req.actor.frontEnd,
    },
    now: () => (deps.clock ?? systemClock).now(),
    requestId: req.requestId,
    // A direct call's checkpoints live in memory, made only if the tool asks for one.
    once: req.checkpoints === undefined ? onceInMemory() : onceWith(req.checkpoints),
    progress: req.onProgress ?? ignoreProgress,
  };
  if (deps.approvals !== undefined) ctx.approvals = readOnlyView(deps.approvals);
  if (deps.payees !== undefined) ctx.payees = deps.payees;
  if (deps.webhooks !== undefined) ctx.webhooks = deps.webhooks;
  if (deps.alerts !== undefined) ctx.alerts = deps.alerts;
  if (deps.policyChanges !== undefined) ctx.policyChanges = deps.policyChanges;
  if (deps.store !== undefined) ctx.store = deps.store;
  if (req.approved !== undefined) ctx.approved = req.approved;
  if (req.approvalId !== undefined) ctx.approvalId = req.approvalId;
  if (req.signal !== undefined) ctx.signal = req.signal;
  return ctx;
}

/** What an entry of a run says happened; the rest comes from the run's request. */
interface RunEvent {
  event: 'executing' | 'executed' | 'failed';
  outcome: AuditOutcome;
  error?: string;
  durationMs?: number;
  /** The run's request id, and the service's when it answered under another. */
  requestIds?: string[];
}

/**
 * An entry of this run. It carries the input as checked: the audit log redacts the tool's secret
 * fields (`extraKeys`, given by `recordOutcome` and `runTool`) and scrubs their values wherever
 * else they occur, as for every entry, so a read's path does not copy the input first. Written
 * field by field: spreading a common part into each entry costs microseconds on every call.
 */
function runEntry(req: RunRequest, happened: RunEvent): AuditEntryInput {
  return {
    actor: auditActor(req.actor),
    frontEnd: req.actor.frontEnd,
    tool: req.tool.name,
    input: req.input,
    decision: req.approvalId === undefined ? 'allow' : 'approved',
    approvalId: req.approvalId ?? null,
    requestIds: happened.requestIds ?? [req.requestId],
    event: happened.event,
    outcome: happened.outcome,
    error: happened.error ?? null,
    durationMs: happened.durationMs ?? null,
  };
}

/**
 * Runs one tool against the service and writes the audit entries of the run: `executing` before a
 * call that changes something (so a crash leaves a trace), then `executed` or `failed`.
 */
export async function runTool(deps: RunDeps, req: RunRequest): Promise<RunOutcome> {
  const { tool } = req;
  const started = performance.now();
  // On disk before the service is called: a crash mid-call still leaves the attempt on record.
  if (!tool.hints.readOnly) {
    await deps.audit.append(runEntry(req, { event: 'executing', outcome: 'pending' }), {
      extraKeys: tool.secretFields ?? [],
    });
  }

  let output: Record<string, unknown>;
  try {
    output = await tool.run(req.input, toolContext(deps, req));
  } catch (error) {
    const failure = toFailure(error, secretsOf(tool, req.input));
    const requestIds =
      failure.requestId && failure.requestId !== req.requestId
        ? [req.requestId, failure.requestId]
        : [req.requestId];
    const recorded = recordOutcome(
      deps,
      tool,
      runEntry(req, {
        event: 'failed',
        outcome: 'failed',
        error: failure.message,
        durationMs: performance.now() - started,
        requestIds,
      }),
    );
    if (recorded !== undefined) await recorded;
    if (error instanceof OutsideApprovedBoundError)
      return { status: 'outside_bound', preview: error.preview, error: failure };
    return { status: 'failed', error: failure };
  }
  // Outside the try: the operation happened. Failing to record it (a locked database) must never
  // turn a payout that went out into a `failed` one, which would invite a second payout.
  const recorded = recordOutcome(
    deps,
    tool,
    runEntry(req, { event: 'executed', outcome: 'ok', durationMs: performance.now() - started }),
  );
  if (recorded !== undefined) await recorded;
  return { status: 'ok', output };
}
