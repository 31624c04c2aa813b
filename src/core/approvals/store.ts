import type { Db } from '../db.js';
import { internalError } from '../errors.js';
import type { ApprovalFilter, ApprovalState } from './types.js';

/** One row of `approvals`, as SQLite returns it. */
export interface ApprovalRow {
  id: string;
  tool: string;
  input_json: string;
  fingerprint: string;
  idempotency_key: string | null;
  requester_id: string;
  requester_json: string;
  requester_person: string;
  origin_json: string;
  route_json: string | null;
  state: ApprovalState;
  required_approvers: number;
  approver_role: string;
  policy_rule: string;
  policy_reason: string;
  preview_json: string | null;
  bound_json: string | null;
  checkpoints_json: string;
  result_json: string | null;
  error_json: string | null;
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
  settlement_json: string | null;
  settle_next_at: string | null;
  settle_polls: number;
  /** `passkey` when each vote must be confirmed with a passkey (the rule's `stepUp`). */
  step_up: 'passkey' | null;
}

export interface VoteRow {
  approver_id: string;
  person: string;
  voted_at: string;
  /** The approver as they voted (the identity the policy is applied to again). */
  approver_json: string;
  /** A signed vote's proof (`VoteEvidence` as JSON), or null. */
  evidence_json: string | null;
}

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;

const COLUMNS = [
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
] as const satisfies readonly (keyof ApprovalRow)[];

/** The SQL of the approvals tables; no decisions here, the engine makes them inside its transactions. */
export class ApprovalStore {
  constructor(private readonly db: Db) {}

  byId(id: string): ApprovalRow | undefined {
    return this.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
  }

  /** The open approval of this request: same fingerprint and the same idempotency key (or none). */
  openByFingerprint(fingerprint: string, key: string | undefined): ApprovalRow | undefined {
    return this.db
      .prepare(
        `SELECT * FROM approvals WHERE fingerprint = ? AND coalesce(idempotency_key, '') = ?
           AND state IN ('pending', 'approved', 'executing', 'unresolved')`,
      )
      .get(fingerprint, key ?? '') as ApprovalRow | undefined;
  }

  /** The open approval of this key, else its latest success (a keyed retry after success gets the result). */
  byKey(requesterId: string, tool: string, key: string): ApprovalRow | undefined {
    return this.db
      .prepare(
        `SELECT * FROM approvals WHERE requester_id = ? AND tool = ? AND idempotency_key = ?
           AND state IN ('pending', 'approved', 'executing', 'unresolved', 'succeeded')
         ORDER BY CASE WHEN state = 'succeeded' THEN 1 ELSE 0 END, created_at DESC LIMIT 1`,
      )
      .get(requesterId, tool, key) as ApprovalRow | undefined;
  }

  insert(row: ApprovalRow): void {
    this.db
      .prepare(
        `INSERT INTO approvals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
      )
      .run(row);
  }

  /**
   * Changes the named columns of one approval, only if it is still in `expected` state (and, when
   * given, still held by `owner`). Returns whether it changed: false means someone else moved it.
   */
  update(
    id: string,
    expected: { state: ApprovalState; owner?: string | null },
    changes: Partial<Omit<ApprovalRow, 'id'>>,
  ): boolean {
    const columns = Object.keys(changes);
    if (columns.length === 0) throw internalError('ApprovalStore.update needs at least one column');
    const sets = columns.map((column) => `${column} = @set_${column}`).join(', ');
    const ownerClause = expected.owner === undefined ? '' : ' AND owner IS @expected_owner';
    const params: Record<string, unknown> = { id, expected_state: expected.state };
    if (expected.owner !== undefined) params.expected_owner = expected.owner;
    for (const [column, value] of Object.entries(changes)) params[`set_${column}`] = value;
    const result = this.db
      .prepare(`UPDATE approvals SET ${sets} WHERE id = @id AND state = @expected_state${ownerClause}`)
      .run(params);
    return result.changes === 1;
  }

  votes(id: string, attempt: number): VoteRow[] {
    return this.db
      .prepare(
        `SELECT approver_id, person, voted_at, approver_json, evidence_json FROM approval_votes
         WHERE approval_id = ? AND attempt = ? ORDER BY voted_at, rowid`,
      )
      .all(id, attempt) as VoteRow[];
  }

  addVote(
    id: string,
    vote: {
      person: string;
      approverId: string;
      approverJson: string;
      attempt: number;
      at: string;
      evidenceJson?: string | null;
    },
  ): void {
    this.db
      .prepare(
        `INSERT INTO approval_votes (approval_id, attempt, person, approver_id, approver_json, voted_at,
           evidence_json)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        vote.attempt,
        vote.person,
        vote.approverId,
        vote.approverJson,
        vote.at,
        vote.evidenceJson ?? null,
      );
  }

  pendingPast(now: string): ApprovalRow[] {
    return this.db
      .prepare(`SELECT * FROM approvals WHERE state = 'pending' AND expires_at <= ?`)
      .all(now) as ApprovalRow[];
  }

  /** The earliest deadline of a pending approval, for the expiry timer. */
  nextExpiry(): string | undefined {
    const row = this.db
      .prepare(`SELECT min(expires_at) AS at FROM approvals WHERE state = 'pending'`)
      .get() as { at: string | null };
    return row.at ?? undefined;
  }

  unfinished(): ApprovalRow[] {
    return this.db
      .prepare(`SELECT * FROM approvals WHERE state IN ('approved', 'executing') ORDER BY updated_at`)
      .all() as ApprovalRow[];
  }

  /** Sent money whose final status is due to be asked again. */
  settlementsDue(now: string, limit: number): ApprovalRow[] {
    return this.db
      .prepare(
        `SELECT * FROM approvals WHERE settle_next_at IS NOT NULL AND settle_next_at <= ?
         ORDER BY settle_next_at LIMIT ?`,
      )
      .all(now, limit) as ApprovalRow[];
  }

  list(filter: ApprovalFilter): ApprovalRow[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.state !== undefined) {
      where.push('state = ?');
      params.push(filter.state);
    }
    if (filter.requester !== undefined) {
      where.push('requester_id = ?');
      params.push(filter.requester);
    }
    if (filter.tool !== undefined) {
      where.push('tool = ?');
      params.push(filter.tool);
    }
    const wanted =
      filter.limit !== undefined && Number.isFinite(filter.limit) ? filter.limit : DEFAULT_LIST_LIMIT;
    const limit = Math.min(Math.max(Math.trunc(wanted), 1), MAX_LIST_LIMIT);
    const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
    return this.db
      .prepare(`SELECT * FROM approvals ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ${limit}`)
      .all(...params) as ApprovalRow[];
  }
}
