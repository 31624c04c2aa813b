import { redact } from '../redact.js';
import type { RunOutcome } from '../run-tool.js';
import { sealPreview } from './bound.js';
import { expiryAfter, type RowSettings, requestIdOf } from './rows.js';
import type { ApprovalRow } from './store.js';
import { isUnsettled } from './unsettled.js';

export interface Settlement {
  changes: Partial<ApprovalRow>;
  /** Set when the approval goes back to the approvers: the new attempt's request id and why. */
  reopened?: { requestId: string; reason: string };
}

/**
 * What an execution's outcome does to its approval (the engine applies it only while it still holds
 * the approval): succeeded, failed, still executing but released (outcome unknown), or pending
 * again as a new attempt with the fresh quote.
 */
export function settlement(
  row: ApprovalRow,
  outcome: RunOutcome,
  settings: RowSettings & { sends: number; secretFields: readonly string[] },
): Settlement {
  const released = { owner: null, lease_until: null, updated_at: settings.now.toISOString() };
  if (outcome.status === 'ok') {
    const result = JSON.stringify(redact(outcome.output, settings.secretFields));
    return { changes: { ...released, state: 'succeeded', result_json: result, error_json: null } };
  }
  if (outcome.status === 'failed' && isUnsettled(outcome.error)) {
    // Still `executing`, held by nobody: `recover()` sends it again with the same request id.
    const message = `outcome unknown after ${settings.sends} sends of ${row.request_id}; recover() sends it again: ${outcome.error.message}`;
    return { changes: { ...released, error_json: JSON.stringify({ ...outcome.error, message }) } };
  }
  if (outcome.status === 'failed') {
    return { changes: { ...released, state: 'failed', error_json: JSON.stringify(outcome.error) } };
  }
  const sealed = sealPreview(outcome.preview, settings.tolerancePercent);
  const attempt = row.attempt + 1;
  const requestId = requestIdOf(row.id, attempt);
  return {
    changes: {
      ...released,
      state: 'pending',
      attempt,
      request_id: requestId,
      preview_json: JSON.stringify(sealed.preview),
      bound_json: sealed.bound === undefined ? null : JSON.stringify(sealed.bound),
      checkpoints_json: '{}',
      error_json: JSON.stringify(outcome.error),
      // A new quote is a new question to the approvers, with the full time to answer it.
      expires_at: expiryAfter(settings.now, settings.ttlSeconds),
    },
    reopened: { requestId, reason: outcome.error.message },
  };
}
