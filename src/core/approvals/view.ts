import { optional } from '../optional.js';
import { redact } from '../redact.js';
import type { Approval, Vote } from './approval.js';
import type { BreakGlassReview } from './break-glass-store.js';
import type { ApprovalView, Failure } from './view-schema.js';

/** The approval as front ends may show it: input redacted again, since views end up in chat channels. */
export function viewOf(
  approval: Approval,
  votes: readonly Vote[],
  secretFields: readonly string[],
  groups?: ApprovalView['groups'],
  breakGlass?: BreakGlassReview,
): ApprovalView {
  const { retryingSince: _since, retryingUntil, ...error } = approval.error ?? {};
  return {
    id: approval.id,
    tool: approval.tool,
    state: approval.state,
    input: redact(approval.input, secretFields) as Record<string, unknown>,
    requester: approval.requesterId,
    requesterPerson: approval.requesterPerson,
    origin: approval.origin,
    ...optional('route', approval.route ?? undefined),
    requiredApprovers: approval.requiredApprovers,
    approverRole: approval.approverRole,
    ...optional('groups', groups),
    reason: approval.policyReason,
    ...optional('policyVersion', approval.policyVersion ?? undefined),
    ...optional('preview', approval.preview ?? undefined),
    ...optional('bound', approval.bound ?? undefined),
    attempt: approval.attempt,
    ...optional('stepUp', approval.stepUp ?? undefined),
    approvals: votes.map((vote) => ({
      approver: vote.approverId,
      person: vote.person,
      at: vote.votedAt,
      ...(vote.evidence === null ? {} : { signed: true }),
    })),
    createdAt: approval.createdAt,
    updatedAt: approval.updatedAt,
    expiresAt: approval.expiresAt,
    ...optional('decidedBy', approval.decidedBy ?? undefined),
    ...optional('decisionReason', approval.decisionReason ?? undefined),
    ...optional('result', approval.result ?? undefined),
    ...(approval.error === null ? {} : { error: error as Failure }),
    requestId: approval.requestId,
    ...(approval.state === 'executing' ? optional('retryingUntil', retryingUntil) : {}),
    ...(approval.state === 'unresolved' ? optional('quoteExpiresAt', quoteExpiry(approval.checkpoints)) : {}),
    ...optional('settlement', approval.settlement ?? undefined),
    ...(breakGlass === undefined
      ? {}
      : {
          breakGlassSummary: `${breakGlass.person} at ${breakGlass.at}: ${breakGlass.reason}; review ${breakGlass.closedAt === undefined ? 'open' : 'closed'}`,
        }),
  };
}

/**
 * Until when the quote an unresolved approval would send again holds (its checkpoint, as the
 * service gave it): past it, Send again (`reconcile --retry`) can only fail with "quote expired".
 */
function quoteExpiry(checkpoints: Record<string, unknown>): string | undefined {
  const quote = checkpoints.quote;
  if (typeof quote !== 'object' || quote === null || !('expiresAt' in quote)) return undefined;
  return typeof quote.expiresAt === 'string' ? quote.expiresAt : undefined;
}
