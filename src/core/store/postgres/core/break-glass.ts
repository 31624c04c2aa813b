import type pg from 'pg';
import {
  BREAK_GLASS_COLUMNS,
  type BreakGlassReview,
  type BreakGlassRow,
  type BreakGlassStore,
  reviewOf,
  rowValues,
} from '../../../approvals/break-glass-store.js';

/** Break-glass uses and their reviews in PostgreSQL (inside the core's write transaction). */
export class PgBreakGlassStore implements BreakGlassStore {
  constructor(private readonly client: pg.ClientBase) {}

  async insert(review: BreakGlassReview): Promise<void> {
    await this.client.query(
      `INSERT INTO break_glass_reviews (${BREAK_GLASS_COLUMNS.join(', ')})
       VALUES (${BREAK_GLASS_COLUMNS.map((c, i) => (c === 'closers_json' ? `$${i + 1}::json` : `$${i + 1}`)).join(', ')})`,
      rowValues(review),
    );
  }

  async byApproval(approvalId: string): Promise<BreakGlassReview | undefined> {
    const result = await this.client.query<BreakGlassRow>(
      'SELECT * FROM break_glass_reviews WHERE approval_id = $1',
      [approvalId],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : reviewOf(row);
  }

  async byApprovals(approvalIds: readonly string[]): Promise<BreakGlassReview[]> {
    if (approvalIds.length === 0) return [];
    const result = await this.client.query<BreakGlassRow>(
      'SELECT * FROM break_glass_reviews WHERE approval_id = ANY($1::text[])',
      [approvalIds],
    );
    return result.rows.map(reviewOf);
  }

  async open(): Promise<BreakGlassReview[]> {
    const result = await this.client.query<BreakGlassRow>(
      'SELECT * FROM break_glass_reviews WHERE closed_at IS NULL ORDER BY at, approval_id',
    );
    return result.rows.map(reviewOf);
  }

  async update(review: BreakGlassReview): Promise<boolean> {
    const result = await this.client.query(
      'UPDATE break_glass_reviews SET closers_json = $1::json, closed_at = $2 WHERE approval_id = $3',
      [JSON.stringify(review.closers), review.closedAt ?? null, review.approvalId],
    );
    return result.rowCount === 1;
  }
}
