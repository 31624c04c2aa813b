import { personOf } from '../policy/actors.js';
import type { Actor } from '../policy/types.js';
import type { Approval } from './approval.js';
import type { EngineContext } from './context.js';
import { auditReconciled } from './reconcile.js';
import { type ApprovalActionResult, closedWords } from './types.js';
import { notFound, refused } from './vote.js';

/** What asking again for an approval requests anew: its tool and its input, whole. */
export interface AskedAgain {
  tool: string;
  input: Record<string, unknown>;
}

/**
 * An approval a person marked not sent (`reconcile --not-sent`: failed, with who decided): they
 * looked its request id up at the service and found nothing, so asking again cannot pay twice. A
 * failure the service answered has no decider; an unresolved approval may still have sent money.
 */
export const markedNotSent = (row: Pick<Approval, 'state' | 'decidedBy'>): boolean =>
  row.state === 'failed' && row.decidedBy !== null;

/**
 * What asking again for `id` would request, or why not: only an approval marked not sent is asked
 * again (a fresh approval, with a fresh quote when it runs; the stored quote of the old one has
 * expired). An unresolved one is looked up and marked not sent first.
 */
export async function askedAgainOf(
  ctx: EngineContext,
  id: string,
): Promise<AskedAgain | ApprovalActionResult> {
  const row = await ctx.read((s) => s.approvals.byId(id));
  if (row === undefined) return notFound(id);
  if (markedNotSent(row)) return { tool: row.tool, input: row.input };
  const view = await ctx.read((s) => ctx.viewById(s, id));
  const why =
    row.state === 'unresolved'
      ? `approval ${id} is unresolved: look up request ${row.requestId} at the service and, if it has no such request, mark it not sent first; only then is it asked again`
      : `approval ${id} ${closedWords(row.state)}; only one a person marked not sent is asked again`;
  return { ...refused(why), ...(view === undefined ? {} : { approval: view }) } as ApprovalActionResult;
}

/**
 * The old approval's record that it was asked again as `next`: an entry in the audit log (who, and
 * the new approval) and a line in its history, in one transaction.
 */
export async function noteAskedAgain(
  ctx: EngineContext,
  id: string,
  actor: Actor,
  next: string,
): Promise<void> {
  await ctx.transaction(async (tx) => {
    const row = await tx.approvals.byId(id);
    if (row === undefined) return;
    const what = `asked again by ${actor.id} as ${next}: a fresh approval, with a fresh quote when it runs`;
    await auditReconciled(ctx, tx, row, actor, 'failed', what);
    await ctx.record(tx, id, 'reconciled', {
      actor,
      person: personOf(ctx.deps.policy.current(), actor),
      detail: what,
    });
  });
}
