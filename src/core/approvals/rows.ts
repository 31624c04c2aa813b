import { randomBytes } from 'node:crypto';
import { internalError } from '../errors.js';
import { optional } from '../optional.js';
import type { Preview } from '../tool.js';
import type { Approval } from './approval.js';
import { sealPreview } from './bound.js';
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

/** A new pending approval: attempt 1, the preview sealed with the tolerance in force. */
export function newApproval(
  request: OpenApprovalRequest & { person: string; policyVersion: number | null },
  preview: Preview | undefined,
  settings: RowSettings,
): Approval {
  const id = `apr_${randomBytes(12).toString('hex')}`;
  const now = settings.now.toISOString();
  const sealed = preview === undefined ? undefined : sealPreview(preview, settings.tolerancePercent);
  const { frontEnd } = request.actor;
  // The executor refuses approval to bankops's own work (nobody would be told of it).
  if (frontEnd === 'system') throw internalError(`${request.actor.id} cannot ask for approval`);
  const origin: Origin = {
    frontEnd,
    displayName: request.origin?.displayName ?? request.actor.id,
    ...optional('replyTo', request.origin?.replyTo),
  };
  return {
    id,
    tool: request.tool.name,
    input: request.input,
    fingerprint: request.fingerprint,
    idempotencyKey: request.idempotencyKey ?? null,
    requesterId: request.actor.id,
    requester: request.actor,
    requesterPerson: request.person,
    origin,
    route: request.decision.route ?? null,
    state: 'pending',
    requiredApprovers: request.decision.approvers,
    approverRole: request.decision.approverRole,
    policyRule: request.decision.rule.label,
    policyReason: request.decision.reason,
    preview: sealed?.preview ?? null,
    bound: sealed?.bound ?? null,
    checkpoints: {},
    result: null,
    error: null,
    requestId: requestIdOf(id, 1),
    attempt: 1,
    sends: 0,
    owner: null,
    leaseUntil: null,
    createdAt: now,
    updatedAt: now,
    expiresAt: expiryAfter(settings.now, settings.ttlSeconds),
    decidedBy: null,
    decisionReason: null,
    settlement: null,
    settleNextAt: null,
    settlePolls: 0,
    stepUp: request.decision.stepUp ?? null,
    policyVersion: request.policyVersion,
    groups: request.decision.groups ?? null,
  };
}
