import type pg from 'pg';
import {
  APPROVAL_COLUMNS,
  type ApprovalCensus,
  type ApprovalRow,
  type ApprovalStore,
  type Expected,
  listLimit,
  type NewVote,
  type VoteRow,
} from '../../../approvals/store.js';
import type { ApprovalFilter } from '../../../approvals/types.js';
import type { ApprovalState } from '../../../approvals/view-schema.js';
import { internalError } from '../../../errors.js';
import { optional } from '../../../optional.js';

const COLUMNS = APPROVAL_COLUMNS;

/** `lease_until` is a timestamptz; it is read back as the ISO text the engine wrote. */
const SELECT = `SELECT ${COLUMNS.map((column) =>
  column === 'lease_until'
    ? `to_char(lease_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS lease_until`
    : column,
).join(', ')} FROM approvals`;

const OPEN = `('pending', 'approved', 'executing', 'unresolved')`;

/** The approvals and their votes in PostgreSQL, on the connection of the transaction in progress. */
export class PgApprovalStore implements ApprovalStore {
  constructor(private readonly client: pg.ClientBase) {}

  async #one(sql: string, values: unknown[]): Promise<ApprovalRow | undefined> {
    return (await this.client.query<ApprovalRow>(sql, values)).rows[0];
  }

  async #all(sql: string, values: unknown[]): Promise<ApprovalRow[]> {
    return (await this.client.query<ApprovalRow>(sql, values)).rows;
  }

  byId(id: string): Promise<ApprovalRow | undefined> {
    return this.#one(`${SELECT} WHERE id = $1`, [id]);
  }

  openByFingerprint(fingerprint: string, key: string | undefined): Promise<ApprovalRow | undefined> {
    return this.#one(
      `${SELECT} WHERE fingerprint = $1 AND coalesce(idempotency_key, '') = $2 AND state IN ${OPEN}`,
      [fingerprint, key ?? ''],
    );
  }

  byKey(requesterId: string, tool: string, key: string): Promise<ApprovalRow | undefined> {
    return this.#one(
      `${SELECT} WHERE requester_id = $1 AND tool = $2 AND idempotency_key = $3
         AND state IN ('pending', 'approved', 'executing', 'unresolved', 'succeeded')
       ORDER BY CASE WHEN state = 'succeeded' THEN 1 ELSE 0 END, created_at DESC LIMIT 1`,
      [requesterId, tool, key],
    );
  }

  async insert(row: ApprovalRow): Promise<void> {
    await this.client.query(
      `INSERT INTO approvals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
      COLUMNS.map((column) => row[column]),
    );
  }

  async update(id: string, expected: Expected, changes: Partial<Omit<ApprovalRow, 'id'>>): Promise<boolean> {
    const entries = Object.entries(changes);
    if (entries.length === 0) throw internalError('ApprovalStore.update needs at least one column');
    // Column names come from ApprovalRow's keys only, never from a caller's text.
    for (const [column] of entries) {
      if (!(COLUMNS as readonly string[]).includes(column)) throw internalError(`no column ${column}`);
    }
    const values: unknown[] = [id, expected.state];
    const sets = entries.map(([column, value]) => {
      values.push(value);
      return `${column} = $${values.length}`;
    });
    let owner = '';
    if (expected.owner !== undefined) {
      values.push(expected.owner);
      owner = ` AND owner IS NOT DISTINCT FROM $${values.length}`;
    }
    const result = await this.client.query(
      `UPDATE approvals SET ${sets.join(', ')} WHERE id = $1 AND state = $2${owner}`,
      values,
    );
    return result.rowCount === 1;
  }

  async claimExecution(id: string, owner: string, leaseUntil: string, now: string): Promise<boolean> {
    const result = await this.client.query(
      `UPDATE approvals SET state = 'executing', owner = $2, lease_until = $3, updated_at = $4
       WHERE id = $1 AND state IN ('approved', 'executing')
         AND (owner IS NULL OR lease_until IS NULL OR lease_until <= $4::timestamptz)`,
      [id, owner, leaseUntil, now],
    );
    return result.rowCount === 1;
  }

  async renewLease(id: string, owner: string, leaseUntil: string): Promise<boolean> {
    const result = await this.client.query(
      `UPDATE approvals SET lease_until = $3 WHERE id = $1 AND state = 'executing' AND owner = $2`,
      [id, owner, leaseUntil],
    );
    return result.rowCount === 1;
  }

  async votes(id: string, attempt: number): Promise<VoteRow[]> {
    const rows = await this.client.query<VoteRow>(
      `SELECT approver_id, person, voted_at, approver_json, evidence_json FROM approval_votes
       WHERE approval_id = $1 AND attempt = $2 ORDER BY voted_at, person`,
      [id, attempt],
    );
    return rows.rows;
  }

  async addVote(id: string, vote: NewVote): Promise<void> {
    await this.client.query(
      `INSERT INTO approval_votes (approval_id, attempt, person, approver_id, approver_json, voted_at,
         evidence_json)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, vote.attempt, vote.person, vote.approverId, vote.approverJson, vote.at, vote.evidenceJson ?? null],
    );
  }

  pendingPast(now: string): Promise<ApprovalRow[]> {
    return this.#all(`${SELECT} WHERE state = 'pending' AND expires_at <= $1`, [now]);
  }

  async nextExpiry(): Promise<string | undefined> {
    const rows = await this.client.query<{ at: string | null }>(
      `SELECT min(expires_at) AS at FROM approvals WHERE state = 'pending'`,
    );
    return rows.rows[0]?.at ?? undefined;
  }

  unfinished(): Promise<ApprovalRow[]> {
    return this.#all(`${SELECT} WHERE state IN ('approved', 'executing') ORDER BY updated_at`, []);
  }

  settlementsDue(now: string, limit: number): Promise<ApprovalRow[]> {
    return this.#all(
      `${SELECT} WHERE settle_next_at IS NOT NULL AND settle_next_at <= $1 ORDER BY settle_next_at LIMIT $2`,
      [now, limit],
    );
  }

  list(filter: ApprovalFilter): Promise<ApprovalRow[]> {
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
