import type { ApprovalRow } from '../../src/core/approvals/store.js';

/**
 * An approval row as the stores keep it, for tests that need many rows at once (written straight
 * to the store, not opened through the service): `apr_w<n>` opened `n` seconds after `t0`.
 */
export function approvalRow(n: number, t0: string, changes: Partial<ApprovalRow> = {}): ApprovalRow {
  const at = (seconds: number): string => new Date(Date.parse(t0) + seconds * 1000).toISOString();
  const id = `apr_w${String(n).padStart(4, '0')}`;
  return {
    id,
    tool: 'create_payout',
    input_json: '{}',
    fingerprint: `fp-${id}`,
    idempotency_key: null,
    requester_id: 'cli:operator',
    requester_json: '{"id":"cli:operator","frontEnd":"cli"}',
    requester_person: 'cli:operator',
    origin_json: '{"frontEnd":"cli","displayName":"cli:operator"}',
    route_json: null,
    state: 'pending',
    required_approvers: 1,
    approver_role: 'approver',
    policy_rule: 'payouts',
    policy_reason: 'payouts need an approver',
    preview_json: null,
    bound_json: null,
    checkpoints_json: '{}',
    result_json: null,
    error_json: null,
    request_id: `${id}-1`,
    attempt: 1,
    sends: 0,
    owner: null,
    lease_until: null,
    created_at: at(n),
    updated_at: at(n),
    expires_at: at(7200),
    decided_by: null,
    decision_reason: null,
    settlement_json: null,
    settle_next_at: null,
    settle_polls: 0,
    step_up: null,
    ...changes,
  };
}
