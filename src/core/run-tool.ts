import type { AuditEntryInput, AuditLog } from './audit/index.js';
import { isServiceError, type ServiceClient } from './client/index.js';
import { CodedError, ErrorCode, messageOf } from './errors.js';
import { InputError } from './input-error.js';
import type { Logger } from './log.js';
import { optional } from './optional.js';
import type { PayeeDirectory } from './payees.js';
import type { Actor } from './policy/types.js';
import { collectSecrets, redact, sanitizeText } from './redact.js';
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
}

export interface RunRequest {
  tool: AnyTool;
  /** Already validated by the tool's input schema. */
  input: Record<string, unknown>;
  actor: Actor;
  requestId: string;
  approvalId?: string;
  approved?: Preview;
  checkpoints?: CheckpointStore;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
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
function recordOutcome(
  deps: RunDeps,
  tool: AnyTool,
  entry: AuditEntryInput,
  secrets: readonly string[],
): Promise<void> | undefined {
  // A read does not wait (no promise at all; the audit log reports an entry it cannot write); a
  // write waits for its entry on disk.
  if (tool.hints.readOnly) {
    deps.audit.note(entry, { secrets });
    return undefined;
  }
  return deps.audit.append(entry, { secrets }).then(
    () => undefined,
    (error: unknown) => {
      deps.log?.error('audit entry could not be written; the outcome stands', { tool: tool.name, error });
    },
  );
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

type SharedContext = Pick<ToolContext, 'client' | 'defaults' | 'approvals' | 'payees' | 'webhooks'>;
const sharedContexts = new WeakMap<RunDeps, SharedContext>();

/** The part of a tool's context that is the same for every call with these deps, made once. */
function sharedContext(deps: RunDeps): SharedContext {
  let shared = sharedContexts.get(deps);
  if (shared === undefined) {
    shared = {
      client: deps.client,
      defaults: deps.defaults,
      ...(deps.approvals === undefined ? {} : { approvals: readOnlyApprovals(deps.approvals) }),
      ...optional('payees', deps.payees),
      ...optional('webhooks', deps.webhooks),
    };
    sharedContexts.set(deps, shared);
  }
  return shared;
}

/**
 * Runs one tool against the service and writes the audit entries of the run: `executing` before a
 * call that changes something (so a crash leaves a trace), then `executed` or `failed`.
 */
export async function runTool(deps: RunDeps, req: RunRequest): Promise<RunOutcome> {
  const { tool, actor } = req;
  const started = performance.now();
  const secrets = secretsOf(tool, req.input);
  const auditInput = redact(req.input, tool.secretFields ?? []);
  const decision: 'allow' | 'approved' = req.approvalId === undefined ? 'allow' : 'approved';
  const common = {
    actor: actor.id,
    frontEnd: actor.frontEnd,
    tool: tool.name,
    input: auditInput,
    decision,
    approvalId: req.approvalId ?? null,
    requestIds: [req.requestId],
  };
  // On disk before the service is called: a crash mid-call still leaves the attempt on record.
  if (!tool.hints.readOnly)
    await deps.audit.append({ ...common, event: 'executing', outcome: 'pending' }, { secrets });

  const ctx: ToolContext = {
    ...sharedContext(deps),
    actorName: actorName(actor),
    requestId: req.requestId,
    ...optional('approved', req.approved),
    // A direct call's checkpoints live in memory, made only if the tool asks for one.
    once: req.checkpoints === undefined ? onceInMemory() : onceWith(req.checkpoints),
    progress: req.onProgress ?? ignoreProgress,
    ...optional('signal', req.signal),
  };

  let output: Record<string, unknown>;
  try {
    output = await tool.run(req.input, ctx);
  } catch (error) {
    const failure = toFailure(error, secrets);
    const requestIds =
      failure.requestId && failure.requestId !== req.requestId
        ? [req.requestId, failure.requestId]
        : [req.requestId];
    const recorded = recordOutcome(
      deps,
      tool,
      {
        ...common,
        requestIds,
        event: 'failed',
        outcome: 'failed',
        error: failure.message,
        durationMs: performance.now() - started,
      },
      secrets,
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
    { ...common, event: 'executed', outcome: 'ok', durationMs: performance.now() - started },
    secrets,
  );
  if (recorded !== undefined) await recorded;
  return { status: 'ok', output };
}
