import { outcomeUnknown } from '../errors.js';
import type { Decision, EvaluationRequest } from '../policy/types.js';
import { refuseDenied } from '../refusal-audit.js';
import type { ExecuteResult } from '../results.js';
import { type AllowedCall, type AllowedDeps, runAllowed } from '../run-allowed.js';
import type { Storage, Tx } from '../store/index.js';
import { admissionTally, type CountedCall, countsTotals, decideCounted, holdFor, holdOf } from './admit.js';
import type { HoldCount, MoneyHold } from './store.js';

/**
 * What the approval engine is handed to record the call's hold, and (when the policy counts) decide
 * again and count, in the transaction that opens it.
 */
export interface Admission {
  /** What `decide` counts: the opening transaction begins with it (`TxOptions.count`). */
  count?: HoldCount;
  /** Decides again on the totals; none when the policy counts nothing (the first look stands). */
  decide?(tx: Tx): Promise<Decision>;
  /** The approval's row of the running totals, inserted with it. */
  hold(approvalId: string): MoneyHold;
}

export function admission(call: CountedCall, request: Omit<EvaluationRequest, 'totals'>): Admission {
  const hold = (approvalId: string) => holdOf(call, approvalId);
  if (!countsTotals(call.policy)) return { hold };
  // One count for every transaction this admission decides in: each begins with it, and a backend
  // that counted as it began answers `decide` from that very count.
  const counting = admissionTally(call);
  return { count: counting.count, decide: (tx) => decideCounted(tx, call, counting, request), hold };
}

/**
 * A call the first look allowed (`first`): decided again under the locks when the policy counts,
 * and counted if still allowed, in one transaction. The hold is released afterwards if no money
 * can have moved (`settleDirect`).
 */
export function admitDirect(
  storage: Storage,
  call: CountedCall,
  admitted: Admission,
  first: Decision,
): Promise<{ decision: Decision; hold?: string }> {
  return storage.transaction(
    async (tx) => {
      const decision = admitted.decide === undefined ? first : await admitted.decide(tx);
      if (decision.decision !== 'allow') return { decision };
      return { decision, hold: await holdFor(tx, call) };
    },
    admitted.count === undefined ? {} : { count: admitted.count },
  );
}

/** Whether a direct call's result says money cannot have moved: refused, or failed for certain. */
function nothingMoved(result: ExecuteResult): boolean {
  switch (result.status) {
    case 'ok':
    case 'pending_approval':
      return false;
    case 'failed':
      return !outcomeUnknown(result.error);
    case 'denied':
    case 'declined':
    case 'invalid':
      return true;
  }
}

/** Releases a direct call's hold when it moved nothing (an unknown outcome keeps it counted). */
export async function settleDirect(
  storage: Storage,
  hold: string,
  result: ExecuteResult,
  at: Date,
): Promise<void> {
  if (!nothingMoved(result)) return;
  await storage.transaction((tx) => tx.holds.release(hold, at.getTime()));
}

/**
 * An allowed call that moves money: decided again under its totals' locks and counted, then run;
 * its hold released if it moved nothing. A limit reached meanwhile refuses it (audited as a
 * denial); a rule reached meanwhile that wants approvers opens an approval instead (`open`).
 */
export async function runCounted(
  deps: AllowedDeps,
  call: AllowedCall,
  counting: { counted: CountedCall; judged: Omit<EvaluationRequest, 'totals'>; first: Decision },
  open: (
    decision: Extract<Decision, { decision: 'approval' }>,
    admitted: Admission,
  ) => Promise<ExecuteResult>,
): Promise<ExecuteResult> {
  const { tool, input, actor } = call;
  const { counted, judged, first } = counting;
  const admitted = admission(counted, judged);
  const { decision, hold } = await admitDirect(deps.storage, counted, admitted, first);
  if (decision.decision === 'deny') {
    return refuseDenied(deps.audit, tool, actor, input, decision.reason);
  }
  if (decision.decision === 'approval') return open(decision, admitted);
  const result = await runAllowed(deps, call);
  if (hold !== undefined) await settleDirect(deps.storage, hold, result, counted.now);
  return result;
}
