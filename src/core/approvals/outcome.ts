import { outcomeUnknown } from '../errors.js';
import { redact } from '../redact.js';
import type { RunOutcome } from '../run-tool.js';
import type { Approval } from './approval.js';
import { sealPreview } from './bound.js';
import { expiryAfter, type RowSettings, requestIdOf } from './rows.js';
import type { Finish } from './store.js';
import type { ApprovalEventKind, Settlement } from './view-schema.js';

export interface OutcomeChanges {
  /** The transition the store applies (`ApprovalStore.finish`). */
  finish: Finish;
  /** The feed event the change is: succeeded, failed, requoted (back to approvers) or unresolved. */
  kind: Extract<ApprovalEventKind, 'succeeded' | 'failed' | 'requoted' | 'unresolved'>;
  /** What the event says: the error, or why it went back to the approvers. */
  detail?: string;
}

/** What sent money to follow, when the run sent some: the first look is due shortly. */
export interface SettlementStart {
  settlement: Settlement;
  firstLookAt: string;
}

/**
 * What an execution's outcome does to its approval (the engine applies it only while it still holds
 * the approval): succeeded (with the money to follow, if it is not final yet), failed, unresolved
 * (the outcome stayed unknown: a person reconciles it), or pending again as a new attempt with the
 * fresh quote. A pure function: the caller applies it.
 */
export function outcomeChanges(
  row: Approval,
  outcome: RunOutcome,
  settings: RowSettings & { secretFields: readonly string[]; settlement?: SettlementStart },
): OutcomeChanges {
  const at = settings.now.toISOString();
  if (outcome.status === 'ok') {
    const result = redact(outcome.output, settings.secretFields) as Record<string, unknown>;
    const follow = settings.settlement;
    return {
      kind: 'succeeded',
      finish: {
        state: 'succeeded',
        result,
        settlement:
          follow === undefined
            ? null
            : {
                settlement: follow.settlement,
                nextAt: follow.settlement.outcome === 'settling' ? follow.firstLookAt : null,
              },
        at,
      },
    };
  }
  if (outcome.status === 'failed' && outcomeUnknown(outcome.error)) {
    const message = `outcome unknown after ${row.sends} sends of request ${row.requestId} (${outcome.error.message}); look it up at the service by that request id, then settle it with \`bankops approvals reconcile ${row.id}\``;
    return {
      kind: 'unresolved',
      detail: message,
      finish: { state: 'unresolved', error: { ...outcome.error, message }, at },
    };
  }
  if (outcome.status === 'failed') {
    return {
      kind: 'failed',
      detail: outcome.error.message,
      finish: { state: 'failed', error: outcome.error, at },
    };
  }
  const sealed = sealPreview(outcome.preview, settings.tolerancePercent);
  const attempt = row.attempt + 1;
  return {
    kind: 'requoted',
    detail: outcome.error.message,
    finish: {
      state: 'pending',
      requote: {
        attempt,
        requestId: requestIdOf(row.id, attempt),
        preview: sealed.preview,
        bound: sealed.bound ?? null,
        // A new quote is a new question to the approvers, with the full time to answer it.
        expiresAt: expiryAfter(settings.now, settings.ttlSeconds),
      },
      error: outcome.error,
      at,
    },
  };
}
