import { optional } from '../optional.js';
import type { Actor } from '../policy/types.js';
import { redact } from '../redact.js';
import type { Retrying } from './retrying.js';
import type { ApprovalRow, VoteRow } from './store.js';
import type { ApprovalBound, ApprovalView, Failure, Origin, Preview, Settlement } from './view-schema.js';

const parse = <T>(json: string | null): T | undefined =>
  json === null ? undefined : (JSON.parse(json) as T);

export const requesterOf = (row: ApprovalRow): Actor => JSON.parse(row.requester_json) as Actor;

/** The row as front ends may show it: input redacted again, since views end up in chat channels. */
export function viewOf(
  row: ApprovalRow,
  votes: readonly VoteRow[],
  secretFields: readonly string[],
): ApprovalView {
  const preview = parse<Preview>(row.preview_json);
  const bound = parse<ApprovalBound>(row.bound_json);
  const result = parse<Record<string, unknown>>(row.result_json);
  const { retryingSince: _since, retryingUntil, ...error } = parse<Failure & Retrying>(row.error_json) ?? {};
  const route = parse<{ slackChannel?: string }>(row.route_json);
  const settlement = parse<Settlement>(row.settlement_json);
  return {
    id: row.id,
    tool: row.tool,
    state: row.state,
    input: redact(JSON.parse(row.input_json), secretFields) as Record<string, unknown>,
    requester: row.requester_id,
    requesterPerson: row.requester_person,
    origin: JSON.parse(row.origin_json) as Origin,
    ...optional('route', route),
    requiredApprovers: row.required_approvers,
    approverRole: row.approver_role,
    reason: row.policy_reason,
    ...optional('preview', preview),
    ...optional('bound', bound),
    attempt: row.attempt,
    ...(row.step_up === null ? {} : { stepUp: row.step_up }),
    approvals: votes.map((vote) => ({
      approver: vote.approver_id,
      person: vote.person,
      at: vote.voted_at,
      ...(vote.evidence_json === null ? {} : { signed: true }),
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    ...(row.decided_by === null ? {} : { decidedBy: row.decided_by }),
    ...(row.decision_reason === null ? {} : { decisionReason: row.decision_reason }),
    ...optional('result', result),
    ...(row.error_json === null ? {} : { error: error as Failure }),
    requestId: row.request_id,
    ...(row.state === 'executing' ? optional('retryingUntil', retryingUntil) : {}),
    ...optional('settlement', settlement),
  };
}
