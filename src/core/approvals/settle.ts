import { toFailure } from '../run-tool.js';
import type { Tx } from '../store/index.js';
import type { Approval } from './approval.js';
import { SYSTEM_ACTOR } from './audit.js';
import type { EngineContext } from './context.js';
import type { Settlement } from './view-schema.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The first look at sent money: soon, since a sandbox or a fast rail settles in seconds. */
export const firstLookDelayMs = (): number => 2 * SECOND;

/**
 * When to ask again, by how long ago the money was sent: every few seconds at first (a final status
 * shows within about ten seconds), then less and less often; after a week bankops stops asking and
 * says the outcome is unknown. Bounded: about 700 requests over a week for one payout (75 in the
 * first ten minutes, 50 until the hour, 276 until the day, 288 until the week), most payouts far
 * fewer since they settle.
 */
export function nextLookDelayMs(sentAgoMs: number, polls: number): number | undefined {
  if (sentAgoMs < 10 * MINUTE) return Math.min(2 ** Math.min(polls, 2) * 2 * SECOND, 8 * SECOND);
  if (sentAgoMs < HOUR) return MINUTE;
  if (sentAgoMs < DAY) return 5 * MINUTE;
  if (sentAgoMs < 7 * DAY) return 30 * MINUTE;
  return undefined;
}

/** How long one process keeps a look to itself, so two processes following the feed ask once. */
const CLAIM_MS = 30 * SECOND;

/** Takes the look at one row due now; false when another process took it first. */
function claim(ctx: EngineContext, row: Approval): Promise<boolean> {
  const due = row.settleNextAt;
  if (due === null) return Promise.resolve(false);
  const until = new Date(ctx.now().getTime() + CLAIM_MS).toISOString();
  // A compare-and-set on the time it was due: the process that moves it first has the look.
  return ctx.transaction((tx) => tx.approvals.claimSettlementLook(row.id, due, until));
}

/** Asks the service what became of the money one approval sent, and records it. */
async function look(ctx: EngineContext, row: Approval): Promise<void> {
  const tool = ctx.deps.registry.get(row.tool);
  const before = row.settlement;
  if (tool?.settle === undefined || before === null) {
    await ctx.transaction((tx) => tx.approvals.stopSettling(row.id));
    return;
  }
  const now = ctx.now();
  let after: Settlement;
  try {
    const answer = await tool.settle({ kind: before.kind, id: before.id }, ctx.readContext(row.requester));
    after = { ...before, ...answer, checkedAt: now.toISOString() };
    delete after.note;
  } catch (error) {
    // Asking failed (the service is down): the money's status is what it was; ask again later.
    after = {
      ...before,
      checkedAt: now.toISOString(),
      note: `could not ask: ${toFailure(error, []).message}`,
    };
  }
  const polls = row.settlePolls + 1;
  const sentAgo = now.getTime() - Date.parse(row.updatedAt);
  const delay = after.outcome === 'settling' ? nextLookDelayMs(sentAgo, polls) : undefined;
  if (after.outcome === 'settling' && delay === undefined) {
    after = {
      ...after,
      outcome: 'unknown',
      note: `no final status after 7 days (last: ${after.status}); check ${after.kind} ${after.id} at the service`,
    };
  }
  const final = after.outcome !== 'settling';
  await ctx.transaction(async (tx) => {
    const next = final || delay === undefined ? null : new Date(now.getTime() + delay).toISOString();
    const changed = await tx.approvals.recordSettlement(row.id, after, polls, next);
    if (changed && final) await recordSettled(ctx, tx, row, after);
  });
}

/** The audit entry and feed event of sent money that reached its final status (inside a transaction). */
export async function recordSettled(
  ctx: EngineContext,
  tx: Tx,
  row: Approval,
  settlement: Settlement,
): Promise<void> {
  const detail = `${settlement.kind} ${settlement.id} ${settlement.status}${settlement.note === undefined ? '' : `: ${settlement.note}`}`;
  await ctx.audit(tx, {
    actor: SYSTEM_ACTOR,
    tool: row.tool,
    input: ctx.auditInput(row.tool, row.input),
    event: 'settled',
    decision: 'approved',
    approvalId: row.id,
    requestId: row.requestId,
    outcome: settlement.outcome === 'completed' ? 'ok' : 'failed',
    ...(settlement.outcome === 'completed' ? {} : { error: detail }),
  });
  await ctx.record(tx, row.id, 'settled', { actor: SYSTEM_ACTOR, detail });
  if (settlement.outcome === 'failed') {
    // No money left: the payout no longer counts in the running totals, nor as paid to its payee
    // (the payee directory is its own store: told once this commits).
    await tx.holds.releaseApproval(row.id, ctx.now().getTime());
    const payees = ctx.deps.payees;
    if (payees !== undefined)
      tx.afterCommit(() => {
        payees.forgetPayout(row.requestId).catch((error: unknown) => {
          ctx.deps.log?.error('a failed payout is still in its payee history', { approvalId: row.id, error });
        });
      });
  }
}

/** One pass over the sent money whose status is due to be asked; returns how many were asked. */
export async function settleDue(ctx: EngineContext, limit = 20): Promise<number> {
  let asked = 0;
  for (const row of await ctx.read((s) => s.approvals.settlementsDue(ctx.nowIso(), limit))) {
    if (!(await claim(ctx, row))) continue;
    await look(ctx, (await ctx.read((s) => s.approvals.byId(row.id))) ?? row);
    asked += 1;
  }
  return asked;
}
