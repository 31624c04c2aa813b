import type { Approval, NewVote, Vote } from '../../approvals/approval.js';
import type { ApprovalState } from '../../approvals/types.js';
import { type JsonColumns, readNullable, writeNullable } from './json.js';

/**
 * The `approvals` table's columns, in the order the stores and the database copy name them. Both
 * backends name them alike; the `_json` columns are text in SQLite and `json` in PostgreSQL.
 */
export const APPROVAL_COLUMNS = [
  'id',
  'tool',
  'input_json',
  'fingerprint',
  'idempotency_key',
  'requester_id',
  'requester_json',
  'requester_person',
  'origin_json',
  'route_json',
  'state',
  'required_approvers',
  'approver_role',
  'policy_rule',
  'policy_reason',
  'preview_json',
  'bound_json',
  'checkpoints_json',
  'result_json',
  'error_json',
  'request_id',
  'attempt',
  'sends',
  'owner',
  'lease_until',
  'created_at',
  'updated_at',
  'expires_at',
  'decided_by',
  'decision_reason',
  'settlement_json',
  'settle_next_at',
  'settle_polls',
  'step_up',
  'policy_version',
  'groups_json',
] as const satisfies readonly (keyof ApprovalRow)[];

export type ApprovalColumn = (typeof APPROVAL_COLUMNS)[number];

/** A row of `approvals` as a backend reads it: its JSON columns as that backend keeps them. */
export interface ApprovalRow {
  id: string;
  tool: string;
  input_json: unknown;
  fingerprint: string;
  idempotency_key: string | null;
  requester_id: string;
  requester_json: unknown;
  requester_person: string;
  origin_json: unknown;
  route_json: unknown;
  state: ApprovalState;
  required_approvers: number;
  approver_role: string;
  policy_rule: string;
  policy_reason: string;
  preview_json: unknown;
  bound_json: unknown;
  checkpoints_json: unknown;
  result_json: unknown;
  error_json: unknown;
  request_id: string;
  attempt: number;
  sends: number;
  owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
  decided_by: string | null;
  decision_reason: string | null;
  settlement_json: unknown;
  settle_next_at: string | null;
  settle_polls: number;
  step_up: 'passkey' | null;
  /** The policy version the approval opened under (NULL on rows written before versions). */
  policy_version: number | null;
  groups_json: unknown;
}

/** The columns `votes` reads, in order. */
export const VOTE_COLUMNS = 'approver_id, person, voted_at, approver_json, evidence_json';

export interface VoteRow {
  approver_id: string;
  person: string;
  voted_at: string;
  approver_json: unknown;
  evidence_json: unknown;
}

/**
 * The row codec of approvals and their votes for one backend's JSON columns: the only place where
 * an approval becomes columns and columns become an approval.
 */
export function approvalCodec(json: JsonColumns) {
  return {
    toRow(a: Approval): ApprovalRow {
      return {
        id: a.id,
        tool: a.tool,
        input_json: json.write(a.input),
        fingerprint: a.fingerprint,
        idempotency_key: a.idempotencyKey,
        requester_id: a.requesterId,
        requester_json: json.write(a.requester),
        requester_person: a.requesterPerson,
        origin_json: json.write(a.origin),
        route_json: writeNullable(json, a.route),
        state: a.state,
        required_approvers: a.requiredApprovers,
        approver_role: a.approverRole,
        policy_rule: a.policyRule,
        policy_reason: a.policyReason,
        preview_json: writeNullable(json, a.preview),
        bound_json: writeNullable(json, a.bound),
        checkpoints_json: json.write(a.checkpoints),
        result_json: writeNullable(json, a.result),
        error_json: writeNullable(json, a.error),
        request_id: a.requestId,
        attempt: a.attempt,
        sends: a.sends,
        owner: a.owner,
        lease_until: a.leaseUntil,
        created_at: a.createdAt,
        updated_at: a.updatedAt,
        expires_at: a.expiresAt,
        decided_by: a.decidedBy,
        decision_reason: a.decisionReason,
        settlement_json: writeNullable(json, a.settlement),
        settle_next_at: a.settleNextAt,
        settle_polls: a.settlePolls,
        step_up: a.stepUp,
        policy_version: a.policyVersion,
        groups_json: writeNullable(json, a.groups),
      };
    },

    fromRow(row: ApprovalRow): Approval {
      return {
        id: row.id,
        tool: row.tool,
        input: json.read(row.input_json) as Approval['input'],
        fingerprint: row.fingerprint,
        idempotencyKey: row.idempotency_key,
        requesterId: row.requester_id,
        requester: json.read(row.requester_json) as Approval['requester'],
        requesterPerson: row.requester_person,
        origin: json.read(row.origin_json) as Approval['origin'],
        route: readNullable(json, row.route_json) as Approval['route'],
        state: row.state,
        requiredApprovers: row.required_approvers,
        approverRole: row.approver_role,
        policyRule: row.policy_rule,
        policyReason: row.policy_reason,
        preview: readNullable(json, row.preview_json) as Approval['preview'],
        bound: readNullable(json, row.bound_json) as Approval['bound'],
        checkpoints: json.read(row.checkpoints_json) as Approval['checkpoints'],
        result: readNullable(json, row.result_json) as Approval['result'],
        error: readNullable(json, row.error_json) as Approval['error'],
        requestId: row.request_id,
        attempt: row.attempt,
        sends: row.sends,
        owner: row.owner,
        leaseUntil: row.lease_until,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        expiresAt: row.expires_at,
        decidedBy: row.decided_by,
        decisionReason: row.decision_reason,
        settlement: readNullable(json, row.settlement_json) as Approval['settlement'],
        settleNextAt: row.settle_next_at,
        settlePolls: row.settle_polls,
        stepUp: row.step_up,
        // PostgreSQL's integer arrives as a number; a NULL (written before versions) stays null.
        policyVersion: row.policy_version === null ? null : Number(row.policy_version),
        groups: readNullable(json, row.groups_json) as Approval['groups'],
      };
    },

    voteOf(row: VoteRow): Vote {
      return {
        approverId: row.approver_id,
        person: row.person,
        votedAt: row.voted_at,
        approver: json.read(row.approver_json) as Vote['approver'],
        evidence: readNullable(json, row.evidence_json) as Vote['evidence'],
      };
    },

    /** A vote's JSON columns, as stored. */
    voteJson(vote: NewVote): { approver: string; evidence: string | null } {
      return { approver: json.write(vote.approver), evidence: writeNullable(json, vote.evidence) };
    },

    json,
  };
}

export type ApprovalCodec = ReturnType<typeof approvalCodec>;
