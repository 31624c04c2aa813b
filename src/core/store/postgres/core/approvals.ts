import type pg from 'pg';
import type { Approval, NewVote, StoredFailure, Vote } from '../../../approvals/approval.js';
import {
  type ApprovalCensus,
  type ApprovalStore,
  type Closing,
  type Finish,
  listLimit,
} from '../../../approvals/store.js';
import type { ApprovalFilter, Settlement } from '../../../approvals/types.js';
import type { ApprovalState } from '../../../approvals/view-schema.js';
import { optional } from '../../../optional.js';
import type { MoneyHold } from '../../../totals/store.js';
import {
  APPROVAL_COLUMNS,
  type ApprovalRow,
  approvalCodec,
  VOTE_COLUMNS,
  type VoteRow,
} from '../../rows/approvals.js';
import { holdValues } from '../../rows/holds.js';
import { pgJson } from '../json.js';
import { HOLD_INSERT } from './holds.js';

const codec = approvalCodec(pgJson);
const COLUMNS = APPROVAL_COLUMNS;

/** `lease_until` is a timestamptz; it is read back as the ISO text the engine wrote. */
const SELECT = `SELECT ${COLUMNS.map((column) =>
  column === 'lease_until'
    ? `to_char(lease_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS lease_until`
    : column,
).join(', ')} FROM approvals`;

const OPEN = `('pending', 'approved', 'executing', 'unresolved')`;

/** Held by the caller while it executes: `$1` the id, `$2` the owner. */
const HELD = `WHERE id = $1 AND state = 'executing' AND owner = $2`;
/** Let go, as of `$3`. */
const RELEASED = 'owner = NULL, lease_until = NULL, updated_at = $3';

/**
 * The approvals and their votes in PostgreSQL, on the connection of the transaction in progress
 * (which holds the storage's write lock: ../storage.ts). Every change is one conditional `UPDATE`
 * whose row count says whether the caller won it, as on SQLite.
 */
export class PgApprovalStore implements ApprovalStore {
  constructor(private readonly client: pg.ClientBase) {}

  async #one(sql: string, values: unknown[]): Promise<Approval | undefined> {
    const row = (await this.client.query<ApprovalRow>(sql, values)).rows[0];
    return row === undefined ? undefined : codec.fromRow(row);
  }

  async #all(sql: string, values: unknown[]): Promise<Approval[]> {
    return (await this.client.query<ApprovalRow>(sql, values)).rows.map(codec.fromRow);
  }

  async #changed(sql: string, values: unknown[]): Promise<boolean> {
    return (await this.client.query(sql, values)).rowCount === 1;
  }

  byId(id: string): Promise<Approval | undefined> {
    return this.#one(`${SELECT} WHERE id = $1`, [id]);
  }

  openByFingerprint(fingerprint: string, key: string | undefined): Promise<Approval | undefined> {
    return this.#one(
      `${SELECT} WHERE fingerprint = $1 AND coalesce(idempotency_key, '') = $2 AND state IN ${OPEN}`,
      [fingerprint, key ?? ''],
    );
  }

  byKey(requesterId: string, tool: string, key: string): Promise<Approval | undefined> {
    return this.#one(
      `${SELECT} WHERE requester_id = $1 AND tool = $2 AND idempotency_key = $3
         AND state IN ('pending', 'approved', 'executing', 'unresolved', 'succeeded')
       ORDER BY CASE WHEN state = 'succeeded' THEN 1 ELSE 0 END, created_at DESC LIMIT 1`,
      [requesterId, tool, key],
    );
  }

  async insert(approval: Approval, hold?: MoneyHold): Promise<void> {
    const row = codec.toRow(approval);
    const values = COLUMNS.map((column) => row[column]);
    // The hold rides in the same statement (a data-modifying WITH): no round trip of its own.
    const withHold = hold === undefined ? '' : `WITH hold AS (${HOLD_INSERT(values.length)}) `;
    await this.client.query(
      `${withHold}INSERT INTO approvals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
      hold === undefined ? values : [...values, ...holdValues(hold)],
    );
  }

  async votes(id: string, attempt: number): Promise<Vote[]> {
    const rows = await this.client.query<VoteRow>(
      `SELECT ${VOTE_COLUMNS} FROM approval_votes WHERE approval_id = $1 AND attempt = $2 ORDER BY voted_at, person`,
      [id, attempt],
    );
    return rows.rows.map(codec.voteOf);
  }

  async recordVote(id: string, vote: NewVote): Promise<boolean> {
    const json = codec.voteJson(vote);
    await this.client.query(
      `INSERT INTO approval_votes (approval_id, attempt, person, approver_id, approver_json, voted_at,
         evidence_json)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, vote.attempt, vote.person, vote.approverId, json.approver, vote.votedAt, json.evidence],
    );
    return this.#changed(`UPDATE approvals SET updated_at = $2 WHERE id = $1 AND state = 'pending'`, [
      id,
      vote.votedAt,
    ]);
  }

  startExecution(id: string, owner: string, leaseUntil: string, at: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = 'executing', owner = $2, lease_until = $3, updated_at = $4
       WHERE id = $1 AND state = 'pending'`,
      [id, owner, leaseUntil, at],
    );
  }

  close(id: string, closing: Closing): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = $2, decided_by = $3, decision_reason = $4, updated_at = $5
       WHERE id = $1 AND state = 'pending'`,
      [id, closing.state, closing.decidedBy, closing.reason, closing.at],
    );
  }

  claimExecution(id: string, owner: string, leaseUntil: string, now: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = 'executing', owner = $2, lease_until = $3, updated_at = $4
       WHERE id = $1 AND state IN ('approved', 'executing')
         AND (owner IS NULL OR lease_until IS NULL OR lease_until <= $4::timestamptz)`,
      [id, owner, leaseUntil, now],
    );
  }

  renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    return this.#changed(`UPDATE approvals SET lease_until = $3 ${HELD}`, [id, owner, leaseUntil]);
  }

  countSend(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    return this.#changed(`UPDATE approvals SET sends = sends + 1, lease_until = $3 ${HELD}`, [
      id,
      owner,
      leaseUntil,
    ]);
  }

  saveCheckpoints(id: string, owner: string, checkpoints: Record<string, unknown>): Promise<boolean> {
    return this.#changed(`UPDATE approvals SET checkpoints_json = $3 ${HELD}`, [
      id,
      owner,
      pgJson.write(checkpoints),
    ]);
  }

  noteRetrying(id: string, owner: string, error: StoredFailure, leaseUntil: string): Promise<boolean> {
    return this.#changed(`UPDATE approvals SET error_json = $3, lease_until = $4 ${HELD}`, [
      id,
      owner,
      pgJson.write(error),
      leaseUntil,
    ]);
  }

  finish(id: string, owner: string, finish: Finish): Promise<boolean> {
    const base = [id, owner, finish.at];
    switch (finish.state) {
      case 'succeeded':
        return this.#changed(
          `UPDATE approvals SET ${RELEASED}, state = 'succeeded', result_json = $4, error_json = NULL,
             settlement_json = $5, settle_next_at = $6 ${HELD}`,
          [
            ...base,
            pgJson.write(finish.result),
            finish.settlement === null ? null : pgJson.write(finish.settlement.settlement),
            finish.settlement?.nextAt ?? null,
          ],
        );
      case 'failed':
      case 'unresolved':
        return this.#changed(`UPDATE approvals SET ${RELEASED}, state = $4, error_json = $5 ${HELD}`, [
          ...base,
          finish.state,
          pgJson.write(finish.error),
        ]);
      case 'pending': {
        const { requote } = finish;
        return this.#changed(
          `UPDATE approvals SET ${RELEASED}, state = 'pending', attempt = $4, sends = 0, request_id = $5,
             preview_json = $6, bound_json = $7, checkpoints_json = '{}', error_json = $8, expires_at = $9
           ${HELD}`,
          [
            ...base,
            requote.attempt,
            requote.requestId,
            requote.preview === null ? null : pgJson.write(requote.preview),
            requote.bound === null ? null : pgJson.write(requote.bound),
            pgJson.write(finish.error),
            requote.expiresAt,
          ],
        );
      }
    }
  }

  release(id: string, owner: string): Promise<boolean> {
    return this.#changed(`UPDATE approvals SET owner = NULL, lease_until = NULL ${HELD}`, [id, owner]);
  }

  reconcile(
    id: string,
    settled: { state: 'succeeded' | 'failed'; decidedBy: string; reason: string; at: string },
  ): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = $2, decided_by = $3, decision_reason = $4, updated_at = $5
       WHERE id = $1 AND state = 'unresolved'`,
      [id, settled.state, settled.decidedBy, settled.reason, settled.at],
    );
  }

  resend(id: string, owner: string, leaseUntil: string, at: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = 'executing', owner = $2, lease_until = $3, sends = 0, updated_at = $4
       WHERE id = $1 AND state = 'unresolved'`,
      [id, owner, leaseUntil, at],
    );
  }

  claimSettlementLook(id: string, dueAt: string, until: string): Promise<boolean> {
    return this.#changed('UPDATE approvals SET settle_next_at = $3 WHERE id = $1 AND settle_next_at = $2', [
      id,
      dueAt,
      until,
    ]);
  }

  recordSettlement(
    id: string,
    settlement: Settlement,
    polls: number,
    nextAt: string | null,
  ): Promise<boolean> {
    return this.#changed(
      'UPDATE approvals SET settlement_json = $2, settle_polls = $3, settle_next_at = $4 WHERE id = $1',
      [id, pgJson.write(settlement), polls, nextAt],
    );
  }

  stopSettling(id: string): Promise<boolean> {
    return this.#changed('UPDATE approvals SET settle_next_at = NULL WHERE id = $1', [id]);
  }

  pendingPast(now: string): Promise<Approval[]> {
    return this.#all(`${SELECT} WHERE state = 'pending' AND expires_at <= $1`, [now]);
  }

  async nextExpiry(): Promise<string | undefined> {
    const rows = await this.client.query<{ at: string | null }>(
      `SELECT min(expires_at) AS at FROM approvals WHERE state = 'pending'`,
    );
    return rows.rows[0]?.at ?? undefined;
  }

  unfinished(): Promise<Approval[]> {
    return this.#all(`${SELECT} WHERE state IN ('approved', 'executing') ORDER BY updated_at`, []);
  }

  settlementsDue(now: string, limit: number): Promise<Approval[]> {
    return this.#all(
      `${SELECT} WHERE settle_next_at IS NOT NULL AND settle_next_at <= $1 ORDER BY settle_next_at LIMIT $2`,
      [now, limit],
    );
  }

  list(filter: ApprovalFilter): Promise<Approval[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    for (const [column, value] of [
      ['state', filter.state],
      ['requester_id', filter.requester],
      ['tool', filter.tool],
    ] as const) {
      if (value === undefined) continue;
      values.push(value);
      where.push(`${column} = $${values.length}`);
    }
    if (filter.after !== undefined) {
      values.push(filter.after.createdAt, filter.after.id);
      where.push(`(created_at, id) < ($${values.length - 1}, $${values.length})`);
    }
    values.push(listLimit(filter));
    const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
    return this.#all(`${SELECT} ${clause} ORDER BY created_at DESC, id DESC LIMIT $${values.length}`, values);
  }

  async census(): Promise<ApprovalCensus> {
    // Both read the (state, created_at) index only: cheap at any size, for every scrape.
    const byState = await this.client.query<{ state: ApprovalState; count: number }>(
      'SELECT state, count(*)::int AS count FROM approvals GROUP BY state ORDER BY state',
    );
    const oldest = await this.client.query<{ at: string | null }>(
      "SELECT min(created_at) AS at FROM approvals WHERE state = 'pending'",
    );
    return { byState: byState.rows, ...optional('oldestPendingAt', oldest.rows[0]?.at ?? undefined) };
  }
}
