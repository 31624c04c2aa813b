import {
  APPROVAL_COLUMNS,
  type ApprovalCensus,
  type ApprovalRow,
  type ApprovalStore,
  type Expected,
  listLimit,
  type NewVote,
  type VoteRow,
} from '../../approvals/store.js';
import type { ApprovalFilter, ApprovalState } from '../../approvals/types.js';
import type { Db } from '../../db.js';
import { internalError } from '../../errors.js';

const COLUMNS = APPROVAL_COLUMNS;

/** The SQL of the approvals tables and their votes, on the storage's one connection. */
export class SqliteApprovalStore implements ApprovalStore {
  constructor(private readonly db: Db) {}

  async byId(id: string): Promise<ApprovalRow | undefined> {
    return this.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as ApprovalRow | undefined;
  }

  async openByFingerprint(fingerprint: string, key: string | undefined): Promise<ApprovalRow | undefined> {
    return this.db
      .prepare(
        `SELECT * FROM approvals WHERE fingerprint = ? AND coalesce(idempotency_key, '') = ?
           AND state IN ('pending', 'approved', 'executing', 'unresolved')`,
      )
      .get(fingerprint, key ?? '') as ApprovalRow | undefined;
  }

  async byKey(requesterId: string, tool: string, key: string): Promise<ApprovalRow | undefined> {
    return this.db
      .prepare(
        `SELECT * FROM approvals WHERE requester_id = ? AND tool = ? AND idempotency_key = ?
           AND state IN ('pending', 'approved', 'executing', 'unresolved', 'succeeded')
         ORDER BY CASE WHEN state = 'succeeded' THEN 1 ELSE 0 END, created_at DESC LIMIT 1`,
      )
      .get(requesterId, tool, key) as ApprovalRow | undefined;
  }

  async insert(row: ApprovalRow): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO approvals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
      )
      .run(row);
  }

  async update(id: string, expected: Expected, changes: Partial<Omit<ApprovalRow, 'id'>>): Promise<boolean> {
    const columns = Object.keys(changes);
    if (columns.length === 0) throw internalError('ApprovalStore.update needs at least one column');
    // Column names come from ApprovalRow's keys only, never from a caller's text.
    for (const column of columns) {
      if (!(COLUMNS as readonly string[]).includes(column)) throw internalError(`no column ${column}`);
    }
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

  async claimExecution(id: string, owner: string, leaseUntil: string, now: string): Promise<boolean> {
    const result = this.db
      .prepare(
        `UPDATE approvals SET state = 'executing', owner = @owner, lease_until = @leaseUntil, updated_at = @now
         WHERE id = @id AND state IN ('approved', 'executing')
           AND (owner IS NULL OR lease_until IS NULL OR lease_until <= @now)`,
      )
      .run({ id, owner, leaseUntil, now });
    return result.changes === 1;
  }

  async renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    const result = this.db
      .prepare(`UPDATE approvals SET lease_until = ? WHERE id = ? AND state = 'executing' AND owner = ?`)
      .run(leaseUntil, id, owner);
    return result.changes === 1;
  }

  async votes(id: string, attempt: number): Promise<VoteRow[]> {
    return this.db
      .prepare(
        `SELECT approver_id, person, voted_at, approver_json, evidence_json FROM approval_votes
         WHERE approval_id = ? AND attempt = ? ORDER BY voted_at, rowid`,
      )
      .all(id, attempt) as VoteRow[];
  }

  async addVote(id: string, vote: NewVote): Promise<void> {
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

  async pendingPast(now: string): Promise<ApprovalRow[]> {
    return this.db
      .prepare(`SELECT * FROM approvals WHERE state = 'pending' AND expires_at <= ?`)
      .all(now) as ApprovalRow[];
  }

  async nextExpiry(): Promise<string | undefined> {
    const row = this.db
      .prepare(`SELECT min(expires_at) AS at FROM approvals WHERE state = 'pending'`)
      .get() as { at: string | null };
    return row.at ?? undefined;
  }

  async unfinished(): Promise<ApprovalRow[]> {
    return this.db
      .prepare(`SELECT * FROM approvals WHERE state IN ('approved', 'executing') ORDER BY updated_at`)
      .all() as ApprovalRow[];
  }

  async settlementsDue(now: string, limit: number): Promise<ApprovalRow[]> {
    return this.db
      .prepare(
        `SELECT * FROM approvals WHERE settle_next_at IS NOT NULL AND settle_next_at <= ?
         ORDER BY settle_next_at LIMIT ?`,
      )
      .all(now, limit) as ApprovalRow[];
  }

  async list(filter: ApprovalFilter): Promise<ApprovalRow[]> {
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
    return this.db
      .prepare(`SELECT * FROM approvals ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ?`)
      .all(...params, listLimit(filter)) as ApprovalRow[];
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
