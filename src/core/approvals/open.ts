import { personOf } from '../policy/actors.js';
import type { ExecuteResult } from '../results.js';
import { secretsOf, toFailure } from '../run-tool.js';
import type { Preview } from '../tool.js';
import { auditApproval } from './audit.js';
import type { EngineContext } from './context.js';
import { expireDue } from './expire.js';
import { newApprovalRow } from './rows.js';
import type { ApprovalRow } from './store.js';
import type { OpenApprovalRequest } from './types.js';

/**
 * Opens an approval: joins an identical open one, else takes the tool's preview (a quote, the facts
 * approvers read; it refuses what cannot succeed, such as a debit the balance cannot cover) and
 * stores a pending approval with its feed event, in one transaction.
 */
export async function openApproval(ctx: EngineContext, request: OpenApprovalRequest): Promise<ExecuteResult> {
  const { tool, input, actor } = request;
  expireDue(ctx);
  const joined = ctx.transaction(() => join(ctx, request));
  if (joined !== undefined) return joined;

  // The audit entry of the request, opened or not.
  const requested = (fields: {
    approvalId: string | null;
    outcome: 'failed' | 'pending';
    error?: string;
    requestId?: string;
  }) =>
    auditApproval(ctx.deps.audit, {
      actor,
      tool: tool.name,
      input: ctx.auditInput(tool, input),
      event: 'requested',
      decision: 'approval_required',
      ...fields,
    });

  let preview: Preview | undefined;
  if (tool.preview !== undefined) {
    try {
      preview = await tool.preview(input, ctx.readContext(actor, request.onProgress));
    } catch (error) {
      const failure = toFailure(error, secretsOf(tool, input));
      requested({ approvalId: null, outcome: 'failed', error: `not opened: ${failure.message}` });
      return { status: 'failed', tool: tool.name, error: failure };
    }
  }

  const person = personOf(ctx.deps.policy.current(), actor);
  const row = newApprovalRow({ ...request, person }, preview, ctx.settings());
  const raced = ctx.transaction((): ExecuteResult | undefined => {
    // An identical request may have opened one while we were quoting: join it instead.
    const other = join(ctx, request);
    if (other !== undefined) return other;
    ctx.store.insert(row);
    requested({ approvalId: row.id, requestId: row.request_id, outcome: 'pending' });
    ctx.record(row.id, 'opened', { actor, person });
    return undefined;
  });
  if (raced !== undefined) return raced;
  return { status: 'pending_approval', tool: tool.name, approvalId: row.id, approval: ctx.view(row) };
}

/**
 * The open approval this request repeats (assistants retry; people double-click), or a keyed
 * retry's first result. A join is said in the answer (`joined`), with who opened it and when.
 */
function join(ctx: EngineContext, request: OpenApprovalRequest): ExecuteResult | undefined {
  const { tool, actor, fingerprint, idempotencyKey: key } = request;
  let found: ApprovalRow | undefined;
  if (key !== undefined) {
    found = ctx.store.byKey(actor.id, tool.name, key);
    if (found !== undefined && found.fingerprint !== fingerprint) {
      const message = `idempotency key '${key}' was already used for a different ${tool.name} input (approval ${found.id})`;
      return { status: 'invalid', tool: tool.name, message, errors: [{ path: '', message }] };
    }
    if (found?.state === 'succeeded') {
      const output = JSON.parse(found.result_json ?? '{}') as Record<string, unknown>;
      return { status: 'ok', tool: tool.name, output, requestId: found.request_id };
    }
  }
  found ??= ctx.store.openByFingerprint(fingerprint, key);
  if (found === undefined) return undefined;
  auditApproval(ctx.deps.audit, {
    actor,
    tool: tool.name,
    input: ctx.auditInput(tool, request.input),
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
    approval: ctx.view(found),
    joined: true,
  };
}
