import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  ApprovalActionResult,
  ApprovalFilter,
  ApprovalListener,
  ApprovalService,
  ApprovalView,
} from './approvals/types.js';
import type { AuditLog } from './audit/index.js';
import { canonicalJson } from './canonical-json.js';
import type { ServiceClient } from './client/index.js';
import { ConfirmationDeferred, type WriteToConfirm } from './confirmation.js';
import { type Db, migrate } from './db.js';
import type { Logger } from './log.js';
import { evaluate } from './policy/evaluate.js';
import type { Policy } from './policy/schema.js';
import type { PolicyStore } from './policy/store.js';
import type { Actor, PolicyTool } from './policy/types.js';
import { redact } from './redact.js';
import type { Registry } from './registry.js';
import type { ExecuteResult, Failure, FieldError } from './results.js';
import { runTool, secretsOf } from './run-tool.js';
import type { AnyTool, ToolDefaults } from './tool.js';
import { unknownFields } from './unknown-fields.js';

export interface ExecuteRequest {
  tool: string;
  input: unknown;
  actor: Actor;
  /**
   * Makes a retry the same request: a repeat with the same key returns the first result (and the
   * service sees the same `x-request-id`); the same key with a different input is refused.
   */
  idempotencyKey?: string;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  /**
   * Asks the person behind the call to confirm a write the policy allows outright (a write that
   * needs approval has its approvers instead). Resolves false when they decline; the call then
   * ends `declined` and nothing runs. Given only by front ends that can ask (MCP elicitation).
   * A front end that asks between two calls (MCP's multi round-trip) throws `ConfirmationDeferred`:
   * `execute` then rejects with it, nothing run and nothing audited, and the next call brings the
   * answer.
   */
  confirm?: (write: WriteToConfirm) => Promise<boolean>;
}

export type { WriteToConfirm } from './confirmation.js';

export interface ExecutorDeps {
  db: Db;
  registry: Registry;
  policy: PolicyStore;
  audit: AuditLog;
  client: ServiceClient;
  defaults: ToolDefaults;
  approvals?: ApprovalService;
  log?: Logger;
}

const MIGRATION = [
  `CREATE TABLE IF NOT EXISTS executions (
     actor TEXT NOT NULL,
     tool TEXT NOT NULL,
     idempotency_key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     request_id TEXT NOT NULL,
     result_json TEXT,
     created_at TEXT NOT NULL,
     PRIMARY KEY (actor, tool, idempotency_key)
   )`,
];

/** SHA-256 of who asks for what: an identical request has the same fingerprint. */
export function requestFingerprint(actor: Actor, tool: string, input: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ actor: actor.id, tool, input: input as never }))
    .digest('hex');
}

/** The request id of a keyed call: stable, so the service deduplicates a retry too. */
const keyedRequestId = (actor: Actor, tool: string, key: string): string =>
  `idem-${createHash('sha256').update(`${actor.id}\u0000${tool}\u0000${key}`).digest('hex').slice(0, 32)}`;

/** A field that is missing says so, instead of "expected string, received undefined". */
const requiredMessage = (issue: z.core.$ZodRawIssue): string | undefined =>
  MISSING_CODES.has(issue.code ?? '') && issue.input === undefined ? 'required' : undefined;

/** The issues a field left out raises (a type, an enum, a union); a rule of the tool keeps its words. */
const MISSING_CODES = new Set(['invalid_type', 'invalid_value', 'invalid_union']);

function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/**
 * A request the client refused before sending it (it breaks the service's schema, e.g. a
 * beneficiary's corridor schema) is the caller's to fix: report it as invalid input, field by field.
 */
function invalidRequest(tool: string, error: Failure): ExecuteResult | undefined {
  if (error.kind !== 'invalid_request') return undefined;
  const errors = (error.issues ?? [error.message]).map((issue) => {
    const at = issue.indexOf(': ');
    return at > 0
      ? { path: issue.slice(0, at).replace(/^\//, '').replaceAll('/', '.'), message: issue.slice(at + 2) }
      : { path: '', message: issue };
  });
  return { status: 'invalid', tool, message: `invalid input for ${tool}: ${error.message}`, errors };
}

/** The part of a tool the policy reads. */
function policyView(tool: AnyTool): PolicyTool {
  const money = tool.money?.bind(tool);
  return {
    name: tool.name,
    toolset: tool.toolset,
    hints: tool.hints,
    ...(money === undefined ? {} : { money: (input: unknown) => money(input as Record<string, unknown>) }),
  };
}

/**
 * The one way any front end calls the service: validate, authorize, apply the approval policy,
 * audit, then run the tool or open an approval (DESIGN "Data flow").
 */
export class Executor {
  private readonly inflight = new Map<string, Promise<ExecuteResult>>();

  constructor(private readonly deps: ExecutorDeps) {
    migrate(deps.db, 'executor-1', MIGRATION);
  }

  get registry(): Registry {
    return this.deps.registry;
  }

  /** The policy in force now (it reloads), for front ends that show an actor what it may do. */
  get policy(): Policy {
    return this.deps.policy.current();
  }

  async execute(req: ExecuteRequest): Promise<ExecuteResult> {
    const { actor } = req;
    const tool = this.deps.registry.get(req.tool);
    if (tool === undefined) {
      const message = `unknown tool '${req.tool}'; \`bankops tools\` lists the tools`;
      this.auditRefusal(req.tool, actor, redact(req.input ?? {}), 'invalid', message);
      return { status: 'invalid', tool: req.tool, message, errors: [{ path: '', message }] };
    }
    const parsed = tool.input.safeParse(req.input ?? {}, { error: requiredMessage });
    const unknown = unknownFields(req.input, Object.keys(tool.input.shape));
    if (!parsed.success || unknown.length > 0) {
      const errors = [...unknown, ...(parsed.success ? [] : fieldErrors(parsed.error))];
      const message = `invalid input for ${tool.name}: ${errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`;
      // A misspelt secret field (`pn` for `pin`) is a secret all the same: unknown values are not kept.
      const hidden = [...(tool.secretFields ?? []), ...unknown.map((e) => e.path)];
      this.auditRefusal(tool.name, actor, redact(req.input ?? {}, hidden), 'invalid', message, tool);
      return { status: 'invalid', tool: tool.name, message, errors };
    }
    const input = parsed.data as Record<string, unknown>;
    const decision = evaluate(this.deps.policy.current(), { tool: policyView(tool), input, actor });
    if (decision.decision === 'deny') {
      this.auditRefusal(
        tool.name,
        actor,
        redact(input, tool.secretFields ?? []),
        'deny',
        decision.reason,
        tool,
      );
      return { status: 'denied', tool: tool.name, reason: decision.reason };
    }

    const fingerprint = requestFingerprint(actor, tool.name, input);
    let replay = false;
    if (req.idempotencyKey !== undefined) {
      const use = this.keyUse(actor, tool, fingerprint, req.idempotencyKey);
      if (use.conflict !== undefined) {
        this.auditRefusal(
          tool.name,
          actor,
          redact(input, tool.secretFields ?? []),
          'invalid',
          use.conflict,
          tool,
        );
        return {
          status: 'invalid',
          tool: tool.name,
          message: use.conflict,
          errors: [{ path: '', message: use.conflict }],
        };
      }
      replay = use.replay;
      // The key already waits for approval with this input: that approval is the answer, even if
      // the policy would now let the call run directly (running it too would act twice).
      const waiting = use.approvalId === undefined ? undefined : this.deps.approvals?.get(use.approvalId);
      if (waiting !== undefined && decision.decision !== 'approval') {
        return waiting.state === 'succeeded'
          ? { status: 'ok', tool: tool.name, output: waiting.result ?? {}, requestId: waiting.requestId }
          : { status: 'pending_approval', tool: tool.name, approvalId: waiting.id, approval: waiting };
      }
    }
    if (decision.decision === 'approval') {
      const refusal = this.approvalRefusal(tool, input);
      if (refusal !== undefined) {
        this.auditRefusal(tool.name, actor, redact(input, tool.secretFields ?? []), 'deny', refusal, tool);
        return { status: 'denied', tool: tool.name, reason: refusal };
      }
      return this.deps.approvals!.open({
        tool,
        input,
        actor,
        decision,
        fingerprint,
        ...(req.idempotencyKey === undefined ? {} : { idempotencyKey: req.idempotencyKey }),
        ...(req.onProgress === undefined ? {} : { onProgress: req.onProgress }),
      });
    }

    if (req.confirm !== undefined && !tool.hints.readOnly && !replay) {
      const declined = await this.confirmWrite(tool, input, actor, req.confirm);
      if (declined !== undefined) return declined;
      // The answer may have taken minutes: the call is judged again (policy, idempotency key) as if
      // sent now, so a "yes" never runs a write the policy has since denied or put behind approval.
      const { confirm: _asked, ...confirmed } = req;
      return this.execute(confirmed);
    }

    // An identical request (same actor, tool, input and idempotency key) while the first is still
    // running joins it (assistants retry); different keys are different operations.
    const flight = `${fingerprint}\u0000${req.idempotencyKey ?? ''}`;
    const joined = this.inflight.get(flight);
    if (joined !== undefined) return joined;
    const running = this.runAllowed(tool, input, actor, fingerprint, req).finally(() => {
      this.inflight.delete(flight);
    });
    this.inflight.set(flight, running);
    return running;
  }

  private approvalRefusal(tool: AnyTool, input: Record<string, unknown>): string | undefined {
    if (this.deps.approvals === undefined)
      return `${tool.name} needs approval, and approvals are not available here`;
    if (secretsOf(tool, input).length > 0) {
      return `${tool.name} needs approval, but its input holds secrets that bankops never stores; change the policy so it does not need approval`;
    }
    return undefined;
  }

  private async runAllowed(
    tool: AnyTool,
    input: Record<string, unknown>,
    actor: Actor,
    fingerprint: string,
    req: ExecuteRequest,
  ): Promise<ExecuteResult> {
    const key = req.idempotencyKey;
    let requestId: string = randomUUID();
    if (key !== undefined) {
      const previous = this.deps.db
        .prepare(
          'SELECT fingerprint, result_json FROM executions WHERE actor = ? AND tool = ? AND idempotency_key = ?',
        )
        .get(actor.id, tool.name, key) as { fingerprint: string; result_json: string | null } | undefined;
      if (previous !== undefined && previous.fingerprint !== fingerprint) {
        const message = `idempotency key '${key}' was already used for a different ${tool.name} input`;
        this.auditRefusal(tool.name, actor, redact(input, tool.secretFields ?? []), 'invalid', message, tool);
        return { status: 'invalid', tool: tool.name, message, errors: [{ path: '', message }] };
      }
      if (previous?.result_json) return JSON.parse(previous.result_json) as ExecuteResult;
      requestId = keyedRequestId(actor, tool.name, key);
      this.deps.db
        .prepare(
          `INSERT OR IGNORE INTO executions (actor, tool, idempotency_key, fingerprint, request_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(actor.id, tool.name, key, fingerprint, requestId, new Date().toISOString());
    }
    // A read is recorded once, by its outcome entry (actor, input, decision, result); a write also
    // gets its `requested` entry first, so a crash mid-call still leaves the request on record.
    if (!tool.hints.readOnly) {
      this.deps.audit.append(
        {
          actor: actor.id,
          frontEnd: actor.frontEnd,
          tool: tool.name,
          input: redact(input, tool.secretFields ?? []),
          decision: 'allow',
          event: 'requested',
          requestIds: [requestId],
        },
        { secrets: secretsOf(tool, input) },
      );
    }
    const outcome = await runTool(this.deps, {
      tool,
      input,
      actor,
      requestId,
      ...(req.onProgress === undefined ? {} : { onProgress: req.onProgress }),
      ...(req.signal === undefined ? {} : { signal: req.signal }),
    });
    const result: ExecuteResult =
      outcome.status === 'ok'
        ? { status: 'ok', tool: tool.name, output: outcome.output, requestId }
        : (invalidRequest(tool.name, outcome.error) ?? {
            status: 'failed',
            tool: tool.name,
            error: outcome.error,
          });
    // Only a success is remembered: a failed call may be retried with the same key (and request id).
    // It is stored redacted: a replay does not hand out a secret (a card-details link) a second time.
    if (key !== undefined && result.status === 'ok') {
      const stored = { ...result, output: redact(result.output, tool.secretFields ?? []) };
      this.deps.db
        .prepare('UPDATE executions SET result_json = ? WHERE actor = ? AND tool = ? AND idempotency_key = ?')
        .run(JSON.stringify(stored), actor.id, tool.name, key);
    }
    return result;
  }

  /**
   * What an idempotency key already stands for, run directly (executions) or waiting for approval:
   * another input is a conflict; a stored result of this input is a replay, which asks nobody.
   * Keys are for tools that change something: a read with a key would replay a stale answer.
   */
  private keyUse(
    actor: Actor,
    tool: AnyTool,
    fingerprint: string,
    key: string,
  ): { conflict?: string; replay: boolean; approvalId?: string } {
    if (tool.hints.readOnly) {
      return {
        conflict: `${tool.name} only reads, and a read is not repeated with an idempotency key: call it without one`,
        replay: false,
      };
    }
    const ran = this.deps.db
      .prepare(
        'SELECT fingerprint, result_json FROM executions WHERE actor = ? AND tool = ? AND idempotency_key = ?',
      )
      .get(actor.id, tool.name, key) as { fingerprint: string; result_json: string | null } | undefined;
    const waits = this.deps.approvals?.byIdempotencyKey(actor.id, tool.name, key);
    const used = `idempotency key '${key}' was already used for a different ${tool.name} input`;
    if (ran !== undefined && ran.fingerprint !== fingerprint) return { conflict: used, replay: false };
    if (waits !== undefined && waits.fingerprint !== fingerprint)
      return { conflict: `${used} (approval ${waits.id})`, replay: false };
    return {
      replay: ran?.result_json != null || waits !== undefined,
      ...(waits === undefined ? {} : { approvalId: waits.id }),
    };
  }

  /** Asks the person to confirm the write; undefined when they said yes, else the `declined` result. */
  private async confirmWrite(
    tool: AnyTool,
    input: Record<string, unknown>,
    actor: Actor,
    confirm: NonNullable<ExecuteRequest['confirm']>,
  ): Promise<ExecuteResult | undefined> {
    const redacted = redact(input, tool.secretFields ?? []) as Record<string, unknown>;
    let reason: string | undefined;
    try {
      if (!(await confirm({ tool, input: redacted }))) reason = 'the user declined to confirm it';
    } catch (error) {
      if (error instanceof ConfirmationDeferred) throw error;
      reason = `it could not be confirmed (${error instanceof Error ? error.message : String(error)})`;
    }
    if (reason === undefined) return undefined;
    this.deps.audit.append(
      {
        actor: actor.id,
        frontEnd: actor.frontEnd,
        tool: tool.name,
        input: redacted,
        decision: 'declined',
        event: 'requested',
        outcome: 'failed',
        error: `not run: ${reason}`,
      },
      { secrets: secretsOf(tool, input) },
    );
    return { status: 'declined', tool: tool.name, reason: `${tool.name} was not run: ${reason}` };
  }

  private auditRefusal(
    tool: string,
    actor: Actor,
    input: unknown,
    decision: 'deny' | 'invalid',
    reason: string,
    definition?: AnyTool,
  ): void {
    this.deps.audit.append(
      {
        actor: actor.id,
        frontEnd: actor.frontEnd,
        tool,
        input,
        decision,
        event: 'requested',
        outcome: 'failed',
        error: reason,
      },
      { secrets: definition === undefined ? [] : secretsOf(definition, input) },
    );
  }

  // Approvals, for every front end.

  private get approvalService(): ApprovalService {
    if (this.deps.approvals === undefined) throw new Error('approvals are not available');
    return this.deps.approvals;
  }

  approve(id: string, approver: Actor): Promise<ApprovalActionResult> {
    return this.approvalService.approve(id, approver);
  }

  reject(id: string, approver: Actor, reason: string): ApprovalActionResult {
    return this.approvalService.reject(id, approver, reason);
  }

  cancel(id: string, actor: Actor, reason?: string): ApprovalActionResult {
    return this.approvalService.cancel(id, actor, reason);
  }

  getApproval(id: string): ApprovalView | undefined {
    return this.approvalService.get(id);
  }

  listApprovals(filter?: ApprovalFilter): ApprovalView[] {
    return this.approvalService.list(filter);
  }

  recover(): Promise<number> {
    return this.deps.approvals?.recover() ?? Promise.resolve(0);
  }

  onApprovalChange(listener: ApprovalListener): () => void {
    return this.approvalService.onChange(listener);
  }
}
