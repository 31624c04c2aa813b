import type { Approval } from '../../src/core/approvals/approval.js';

/**
 * An approval as the stores keep it, for tests that need many at once (written straight to the
 * store, not opened through the service): `apr_w<n>` opened `n` seconds after `t0`.
 */
export function approvalRow(n: number, t0: string, changes: Partial<Approval> = {}): Approval {
  const at = (seconds: number): string => new Date(Date.parse(t0) + seconds * 1000).toISOString();
  const id = `apr_w${String(n).padStart(4, '0')}`;
  return {
    id,
    tool: 'create_payout',
    input: {},
    fingerprint: `fp-${id}`,
    idempotencyKey: null,
    requesterId: 'cli:operator',
    requester: { id: 'cli:operator', frontEnd: 'cli' },
    requesterPerson: 'cli:operator',
    origin: { frontEnd: 'cli', displayName: 'cli:operator' },
    route: null,
    state: 'pending',
    requiredApprovers: 1,
    approverRole: 'approver',
    policyRule: 'payouts',
    policyReason: 'payouts need an approver',
    preview: null,
    bound: null,
    checkpoints: {},
    result: null,
    error: null,
    policyVersion: null,
    requestId: `${id}-1`,
    attempt: 1,
    sends: 0,
    owner: null,
    leaseUntil: null,
    createdAt: at(n),
    updatedAt: at(n),
    expiresAt: at(7200),
    decidedBy: null,
    decisionReason: null,
    settlement: null,
    settleNextAt: null,
    settlePolls: 0,
    stepUp: null,
    groups: null,
    ...changes,
  };
}
