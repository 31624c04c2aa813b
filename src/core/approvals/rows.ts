import { randomBytes } from 'node:crypto';
import { internalError } from '../errors.js';
import type { Preview } from '../tool.js';
import { sealPreview } from './bound.js';
import type { ApprovalRow } from './store.js';
import type { OpenApprovalRequest } from './types.js';
import type { Origin } from './view-schema.js';

export interface RowSettings {
  now: Date;
  ttlSeconds: number;
  tolerancePercent: number;
}

/** Each attempt of an approval is one request at the service, whoever executes it and however often. */
export const requestIdOf = (id: string, attempt: number): string => `${id}-${attempt}`;

export const expiryAfter = (from: Date, ttlSeconds: number): string =>
  new Date(from.getTime() + ttlSeconds * 1000).toISOString();

/** The row of a new pending approval: attempt 1, the preview sealed with the tolerance in force. */
export function newApprovalRow(
  request: OpenApprovalRequest & { person: string },
  preview: Preview | undefined,
  settings: RowSettings,
): ApprovalRow {
  const id = `apr_${randomBytes(12).toString('hex')}`;
  const now = settings.now.toISOString();
  const sealed = preview === undefined ? undefined : sealPreview(preview, settings.tolerancePercent);
  const { frontEnd } = request.actor;
  // The executor refuses approval to bankops's own work (nobody would be told of it).
  if (frontEnd === 'system') throw internalError(`${request.actor.id} cannot ask for approval`);
  const origin: Origin = {
    frontEnd,
    displayName: request.origin?.displayName ?? request.actor.id,
    ...(request.origin?.replyTo === undefined ? {} : { replyTo: request.origin.replyTo }),
  };
  return {
    id,
    tool: request.tool.name,
    input_json: JSON.stringify(request.input),
    fingerprint: request.fingerprint,
    idempotency_key: request.idempotencyKey ?? null,
    requester_id: request.actor.id,
    requester_json: JSON.stringify(request.actor),
    requester_person: request.person,
    origin_json: JSON.stringify(origin),
    route_json: request.decision.route === undefined ? null : JSON.stringify(request.decision.route),
    state: 'pending',
    required_approvers: request.decision.approvers,
    approver_role: request.decision.approverRole,
    policy_rule: request.decision.rule.label,
    policy_reason: request.decision.reason,
    preview_json: sealed === undefined ? null : JSON.stringify(sealed.preview),
    bound_json: sealed?.bound === undefined ? null : JSON.stringify(sealed.bound),
    checkpoints_json: '{}',
    result_json: null,
    error_json: null,
    request_id: requestIdOf(id, 1),
    attempt: 1,
    sends: 0,
    owner: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
    expires_at: expiryAfter(settings.now, settings.ttlSeconds),
    decided_by: null,
    decision_reason: null,
    settlement_json: null,
    settle_next_at: null,
    settle_polls: 0,
    step_up: request.decision.stepUp ?? null,
  };
}
