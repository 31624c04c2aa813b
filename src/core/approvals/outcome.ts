import { outcomeUnknown } from '../errors.js';
import { redact } from '../redact.js';
import type { RunOutcome } from '../run-tool.js';
import { sealPreview } from './bound.js';
import { expiryAfter, type RowSettings, requestIdOf } from './rows.js';
import type { ApprovalRow } from './store.js';
import type { ApprovalEventKind, Settlement } from './view-schema.js';

export interface OutcomeChanges {
  changes: Partial<ApprovalRow>;
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
  row: ApprovalRow,
  outcome: RunOutcome,
  settings: RowSettings & { secretFields: readonly string[]; settlement?: SettlementStart },
): OutcomeChanges {
  const released = { owner: null, lease_until: null, updated_at: settings.now.toISOString() };
  if (outcome.status === 'ok') {
    const result = JSON.stringify(redact(outcome.output, settings.secretFields));
    const follow = settings.settlement;
    return {
      kind: 'succeeded',
      changes: {
        ...released,
        state: 'succeeded',
        result_json: result,
        error_json: null,
        ...(follow === undefined
          ? {}
          : {
              settlement_json: JSON.stringify(follow.settlement),
              settle_next_at: follow.settlement.outcome === 'settling' ? follow.firstLookAt : null,
            }),
      },
    };
  }
  if (outcome.status === 'failed' && outcomeUnknown(outcome.error)) {
    const message = `outcome unknown after ${row.sends} sends of request ${row.request_id} (${outcome.error.message}); look it up at the service by that request id, then settle it with \`bankops approvals reconcile ${row.id}\``;
    return {
      kind: 'unresolved',
      detail: message,
      changes: {
        ...released,
        state: 'unresolved',
        error_json: JSON.stringify({ ...outcome.error, message }),
      },
    };
  }
  if (outcome.status === 'failed') {
    return {
      kind: 'failed',
      detail: outcome.error.message,
      changes: { ...released, state: 'failed', error_json: JSON.stringify(outcome.error) },
    };
  }
  const sealed = sealPreview(outcome.preview, settings.tolerancePercent);
  const attempt = row.attempt + 1;
  return {
    kind: 'requoted',
    detail: outcome.error.message,
    changes: {
      ...released,
      state: 'pending',
      attempt,
      sends: 0,
      request_id: requestIdOf(row.id, attempt),
      preview_json: JSON.stringify(sealed.preview),
      bound_json: sealed.bound === undefined ? null : JSON.stringify(sealed.bound),
      checkpoints_json: '{}',
      error_json: JSON.stringify(outcome.error),
      // A new quote is a new question to the approvers, with the full time to answer it.
      expires_at: expiryAfter(settings.now, settings.ttlSeconds),
    },
  };
}
