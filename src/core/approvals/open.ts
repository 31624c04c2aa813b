import { personOf } from '../policy/actors.js';
import type { ExecuteResult } from '../results.js';
import { secretsOf, toFailure } from '../run-tool.js';
import type { Tx } from '../store/index.js';
import type { Preview } from '../tool.js';
import type { Approval } from './approval.js';
import type { EngineContext } from './context.js';
import { expireDue } from './expire.js';
import { newApproval } from './rows.js';
import type { OpenApprovalRequest } from './types.js';

/**
 * Opens an approval: joins an identical open one, else takes the tool's preview (a quote, the facts
 * approvers read; it refuses what cannot succeed, such as a debit the balance cannot cover) and
 * stores a pending approval with its feed event, in one transaction.
 */
export async function openApproval(ctx: EngineContext, request: OpenApprovalRequest): Promise<ExecuteResult> {
  const { tool, input, actor } = request;
  await expireDue(ctx);
  const joined = await ctx.transaction((tx) => join(ctx, tx, request));
  if (joined !== undefined) return joined;

  // The audit entry of the request, opened or not.
  const requested = (
    tx: Tx,
    fields: {
      approvalId: string | null;
      outcome: 'failed' | 'pending';
      error?: string;
      requestId?: string;
    },
  ) =>
    ctx.audit(tx, {
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
      await ctx.transaction((tx) =>
        requested(tx, { approvalId: null, outcome: 'failed', error: `not opened: ${failure.message}` }),
      );
      return { status: 'failed', tool: tool.name, error: failure };
    }
  }

  const person = personOf(ctx.deps.policy.current(), actor);
  // The version deciding this request (pinned for the whole decision): the approval keeps its rule.
  const policyVersion = ctx.deps.policy.stamp?.()?.version ?? null;
  const approval = newApproval({ ...request, person, policyVersion }, preview, ctx.settings());
  const opening = async (tx: Tx): Promise<ExecuteResult> => {
    // An identical request may have opened one while we were quoting: join it instead.
    const other = await join(ctx, tx, request);
    if (other !== undefined) return other;
    let opened = approval;
    if (request.admission?.decide !== undefined) {
      // On the totals committed now, under their locks: a call another replica admitted meanwhile
      // counts. A deny (a limit) refuses; another rule's approval replaces the first look's; an
      // allow keeps the approval the first look asked for (the stricter of the two).
      const again = await request.admission.decide(tx);
      if (again.decision === 'deny') return { status: 'denied', tool: tool.name, reason: again.reason };
      if (again.decision === 'approval' && again.reason !== request.decision.reason)
        opened = newApproval({ ...request, decision: again, person, policyVersion }, preview, ctx.settings());
    }
    await tx.approvals.insert(opened, request.admission?.hold(opened.id));
    await requested(tx, { approvalId: opened.id, requestId: opened.requestId, outcome: 'pending' });
    await ctx.record(tx, opened.id, 'opened', { actor, person });
    return {
      status: 'pending_approval',
      tool: tool.name,
      approvalId: opened.id,
      // As stored: what every later read shows.
      approval: (await ctx.viewById(tx, opened.id))!,
    };
  };
  // Begun with the count the admission decides on (PostgreSQL: in the round trip of BEGIN).
  const count = request.admission?.count;
  return ctx.transaction(opening, count === undefined ? {} : { count });
}

/**
 * The open approval this request repeats (assistants retry; people double-click), or a keyed
 * retry's first result. A join is said in the answer (`joined`), with who opened it and when.
 */
async function join(
  ctx: EngineContext,
  tx: Tx,
  request: OpenApprovalRequest,
): Promise<ExecuteResult | undefined> {
  const { tool, actor, fingerprint, idempotencyKey: key } = request;
  let found: Approval | undefined;
  if (key !== undefined) {
    found = await tx.approvals.byKey(actor.id, tool.name, key);
    if (found !== undefined && found.fingerprint !== fingerprint) {
      const message = `idempotency key '${key}' was already used for a different ${tool.name} input (approval ${found.id})`;
      return { status: 'invalid', tool: tool.name, message, errors: [{ path: '', message }] };
    }
    if (found?.state === 'succeeded') {
      // Nothing runs again: the entry says who asked again and which request answered them.
      await auditJoin(ctx, tx, request, found, 'ok');
      return { status: 'ok', tool: tool.name, output: found.result ?? {}, requestId: found.requestId };
    }
  }
  found ??= await tx.approvals.openByFingerprint(fingerprint, key);
  if (found === undefined) return undefined;
  await auditJoin(ctx, tx, request, found, 'pending');
  return {
    status: 'pending_approval',
    tool: tool.name,
    approvalId: found.id,
    approval: await ctx.view(tx, found),
    joined: true,
  };
}

/** The `requested` entry of a request answered by an approval already there: joined, or its result. */
function auditJoin(
  ctx: EngineContext,
  tx: Tx,
  request: OpenApprovalRequest,
  found: Approval,
  outcome: 'ok' | 'pending',
): Promise<void> {
  return ctx.audit(tx, {
    actor: request.actor,
    tool: request.tool.name,
    input: ctx.auditInput(request.tool, request.input),
    event: 'requested',
    decision: 'approval_required',
    approvalId: found.id,
    requestId: found.requestId,
    outcome,
  });
}
