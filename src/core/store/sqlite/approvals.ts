import type { Approval, NewVote, StoredFailure, Vote } from '../../approvals/approval.js';
import {
  type ApprovalCensus,
  type ApprovalStore,
  type Closing,
  type Finish,
  listLimit,
} from '../../approvals/store.js';
import type { ApprovalFilter, ApprovalState, Settlement } from '../../approvals/types.js';
import type { MoneyHold } from '../../totals/store.js';
import {
  APPROVAL_COLUMNS,
  type ApprovalRow,
  approvalCodec,
  VOTE_COLUMNS,
  type VoteRow,
} from '../rows/approvals.js';
import type { Db } from './database.js';
import { SqliteMoneyHoldStore } from './holds.js';
import { sqliteJson } from './json.js';

const codec = approvalCodec(sqliteJson);
const COLUMNS = APPROVAL_COLUMNS;
const OPEN = `('pending', 'approved', 'executing', 'unresolved')`;

/**
 * The SQL of the approvals tables and their votes, on the storage's one connection. Every change
 * is one conditional `UPDATE`: it applies only to the approval in the state it leaves (and held by
 * the caller while it executes), and its count of changed rows says whether the caller won.
 */
export class SqliteApprovalStore implements ApprovalStore {
  readonly #holds: SqliteMoneyHoldStore;

  constructor(private readonly db: Db) {
    this.#holds = new SqliteMoneyHoldStore(db);
  }

  #one(sql: string, ...params: unknown[]): Approval | undefined {
    const row = this.db.prepare(sql).get(...params) as ApprovalRow | undefined;
    return row === undefined ? undefined : codec.fromRow(row);
  }

  #all(sql: string, ...params: unknown[]): Approval[] {
    return (this.db.prepare(sql).all(...params) as ApprovalRow[]).map(codec.fromRow);
  }

  #changed(sql: string, params: Record<string, unknown>): boolean {
    return this.db.prepare(sql).run(params).changes === 1;
  }

  async byId(id: string): Promise<Approval | undefined> {
    return this.#one('SELECT * FROM approvals WHERE id = ?', id);
  }

  async openByFingerprint(fingerprint: string, key: string | undefined): Promise<Approval | undefined> {
    return this.#one(
      `SELECT * FROM approvals WHERE fingerprint = ? AND coalesce(idempotency_key, '') = ? AND state IN ${OPEN}`,
      fingerprint,
      key ?? '',
    );
  }

  async byKey(requesterId: string, tool: string, key: string): Promise<Approval | undefined> {
    return this.#one(
      `SELECT * FROM approvals WHERE requester_id = ? AND tool = ? AND idempotency_key = ?
         AND state IN ('pending', 'approved', 'executing', 'unresolved', 'succeeded')
       ORDER BY CASE WHEN state = 'succeeded' THEN 1 ELSE 0 END, created_at DESC LIMIT 1`,
      requesterId,
      tool,
      key,
    );
  }

  async insert(approval: Approval, hold?: MoneyHold): Promise<void> {
    if (hold !== undefined) await this.#holds.insert(hold);
    this.db
      .prepare(
        `INSERT INTO approvals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
      )
      .run(codec.toRow(approval));
  }

  async votes(id: string, attempt: number): Promise<Vote[]> {
    return (
      this.db
        .prepare(
          `SELECT ${VOTE_COLUMNS} FROM approval_votes WHERE approval_id = ? AND attempt = ? ORDER BY voted_at, rowid`,
        )
        .all(id, attempt) as VoteRow[]
    ).map(codec.voteOf);
  }

  async recordVote(id: string, vote: NewVote): Promise<boolean> {
    const json = codec.voteJson(vote);
    this.db
      .prepare(
        `INSERT INTO approval_votes (approval_id, attempt, person, approver_id, approver_json, voted_at,
           evidence_json)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, vote.attempt, vote.person, vote.approverId, json.approver, vote.votedAt, json.evidence);
    return this.#changed(`UPDATE approvals SET updated_at = @at WHERE id = @id AND state = 'pending'`, {
      id,
      at: vote.votedAt,
    });
  }

  async startExecution(id: string, owner: string, leaseUntil: string, at: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = 'executing', owner = @owner, lease_until = @leaseUntil, updated_at = @at
       WHERE id = @id AND state = 'pending'`,
      { id, owner, leaseUntil, at },
    );
  }

  async close(id: string, closing: Closing): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = @state, decided_by = @decidedBy, decision_reason = @reason, updated_at = @at
       WHERE id = @id AND state = 'pending'`,
      { id, ...closing },
    );
  }

  async claimExecution(id: string, owner: string, leaseUntil: string, now: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = 'executing', owner = @owner, lease_until = @leaseUntil, updated_at = @now
       WHERE id = @id AND state IN ('approved', 'executing')
         AND (owner IS NULL OR lease_until IS NULL OR lease_until <= @now)`,
      { id, owner, leaseUntil, now },
    );
  }

  async renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET lease_until = @leaseUntil WHERE id = @id AND state = 'executing' AND owner = @owner`,
      { id, owner, leaseUntil },
    );
  }

  async countSend(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET sends = sends + 1, lease_until = @leaseUntil
       WHERE id = @id AND state = 'executing' AND owner = @owner`,
      { id, owner, leaseUntil },
    );
  }

  async saveCheckpoints(id: string, owner: string, checkpoints: Record<string, unknown>): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET checkpoints_json = @checkpoints WHERE id = @id AND state = 'executing' AND owner = @owner`,
      { id, owner, checkpoints: sqliteJson.write(checkpoints) },
    );
  }

  async noteRetrying(id: string, owner: string, error: StoredFailure, leaseUntil: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET error_json = @error, lease_until = @leaseUntil
       WHERE id = @id AND state = 'executing' AND owner = @owner`,
      { id, owner, error: sqliteJson.write(error), leaseUntil },
    );
  }

  async finish(id: string, owner: string, finish: Finish): Promise<boolean> {
    const held = `WHERE id = @id AND state = 'executing' AND owner = @owner`;
    const released = 'owner = NULL, lease_until = NULL, updated_at = @at';
    const base = { id, owner, at: finish.at };
    switch (finish.state) {
      case 'succeeded':
        return this.#changed(
          `UPDATE approvals SET ${released}, state = 'succeeded', result_json = @result, error_json = NULL,
             settlement_json = @settlement, settle_next_at = @nextAt ${held}`,
          {
            ...base,
            result: sqliteJson.write(finish.result),
            settlement: finish.settlement === null ? null : sqliteJson.write(finish.settlement.settlement),
            nextAt: finish.settlement?.nextAt ?? null,
          },
        );
      case 'failed':
      case 'unresolved':
        return this.#changed(
          `UPDATE approvals SET ${released}, state = @state, error_json = @error ${held}`,
          {
            ...base,
            state: finish.state,
            error: sqliteJson.write(finish.error),
          },
        );
      case 'pending': {
        const { requote } = finish;
        return this.#changed(
          `UPDATE approvals SET ${released}, state = 'pending', attempt = @attempt, sends = 0,
             request_id = @requestId, preview_json = @preview, bound_json = @bound, checkpoints_json = '{}',
             error_json = @error, expires_at = @expiresAt ${held}`,
          {
            ...base,
            attempt: requote.attempt,
            requestId: requote.requestId,
            preview: requote.preview === null ? null : sqliteJson.write(requote.preview),
            bound: requote.bound === null ? null : sqliteJson.write(requote.bound),
            error: sqliteJson.write(finish.error),
            expiresAt: requote.expiresAt,
          },
        );
      }
    }
  }

  async release(id: string, owner: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET owner = NULL, lease_until = NULL WHERE id = @id AND state = 'executing' AND owner = @owner`,
      { id, owner },
    );
  }

  async reconcile(
    id: string,
    settled: { state: 'succeeded' | 'failed'; decidedBy: string; reason: string; at: string },
  ): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = @state, decided_by = @decidedBy, decision_reason = @reason, updated_at = @at
       WHERE id = @id AND state = 'unresolved'`,
      { id, ...settled },
    );
  }

  async resend(id: string, owner: string, leaseUntil: string, at: string): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET state = 'executing', owner = @owner, lease_until = @leaseUntil, sends = 0, updated_at = @at
       WHERE id = @id AND state = 'unresolved'`,
      { id, owner, leaseUntil, at },
    );
  }

  async claimSettlementLook(id: string, dueAt: string, until: string): Promise<boolean> {
    return this.#changed(
      'UPDATE approvals SET settle_next_at = @until WHERE id = @id AND settle_next_at = @dueAt',
      {
        id,
        dueAt,
        until,
      },
    );
  }

  async recordSettlement(
    id: string,
    settlement: Settlement,
    polls: number,
    nextAt: string | null,
  ): Promise<boolean> {
    return this.#changed(
      `UPDATE approvals SET settlement_json = @settlement, settle_polls = @polls, settle_next_at = @nextAt
       WHERE id = @id`,
      { id, settlement: sqliteJson.write(settlement), polls, nextAt },
    );
  }

  async stopSettling(id: string): Promise<boolean> {
    return this.#changed('UPDATE approvals SET settle_next_at = NULL WHERE id = @id', { id });
  }

  async pendingPast(now: string): Promise<Approval[]> {
    return this.#all(`SELECT * FROM approvals WHERE state = 'pending' AND expires_at <= ?`, now);
  }

  async nextExpiry(): Promise<string | undefined> {
    const row = this.db
      .prepare(`SELECT min(expires_at) AS at FROM approvals WHERE state = 'pending'`)
      .get() as { at: string | null };
    return row.at ?? undefined;
  }

  async unfinished(): Promise<Approval[]> {
    return this.#all(`SELECT * FROM approvals WHERE state IN ('approved', 'executing') ORDER BY updated_at`);
  }

  async settlementsDue(now: string, limit: number): Promise<Approval[]> {
    return this.#all(
      `SELECT * FROM approvals WHERE settle_next_at IS NOT NULL AND settle_next_at <= ?
       ORDER BY settle_next_at LIMIT ?`,
      now,
      limit,
    );
  }

  async list(filter: ApprovalFilter): Promise<Approval[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of [
      ['state', filter.state],
      ['requester_id', filter.requester],
      ['tool', filter.tool],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    if (filter.after !== undefined) {
      // Older than the last one seen, or as old and recorded before it (its rowid, found by its id):
      // one range of the (state, created_at) index, which holds the rowid too.
      where.push('(created_at, rowid) < (?, (SELECT rowid FROM approvals WHERE id = ?))');
      params.push(filter.after.createdAt, filter.after.id);
    }
    const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
    return this.#all(
      `SELECT * FROM approvals ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ?`,
      ...params,
      listLimit(filter),
    );
  }

  async census(): Promise<ApprovalCensus> {
    // Both read the (state, created_at) index only: cheap at any size, for every scrape.
    const byState = this.db
      .prepare('SELECT state, count(*) AS count FROM approvals GROUP BY state ORDER BY state')
      .all() as { state: ApprovalState; count: number }[];
    const oldest = this.db
      .prepare("SELECT min(created_at) AS at FROM approvals WHERE state = 'pending'")
      .get() as { at: string | null };
    return { byState, ...(oldest.at === null ? {} : { oldestPendingAt: oldest.at }) };
  }
}
