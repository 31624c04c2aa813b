import {
  BREAK_GLASS_COLUMNS,
  type BreakGlassReview,
  type BreakGlassRow,
  type BreakGlassStore,
  reviewOf,
  rowValues,
} from '../../approvals/break-glass-store.js';
import { type Db, migrate } from './database.js';

const SCHEMA = [
  `CREATE TABLE break_glass_reviews (
     approval_id TEXT PRIMARY KEY,
     person TEXT NOT NULL,
     actor_id TEXT NOT NULL,
     reason TEXT NOT NULL,
     at TEXT NOT NULL,
     needed INTEGER NOT NULL,
     role TEXT NOT NULL,
     closers_json TEXT NOT NULL,
     closed_at TEXT
   ) STRICT`,
  'CREATE INDEX break_glass_reviews_open ON break_glass_reviews (at) WHERE closed_at IS NULL',
];

export function migrateBreakGlass(db: Db): void {
  migrate(db, 'breakglass-1', SCHEMA);
}

/** Break-glass uses and their reviews in SQLite. */
export class SqliteBreakGlassStore implements BreakGlassStore {
  readonly #insert;
  readonly #byApproval;
  readonly #open;
  readonly #update;

  constructor(db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO break_glass_reviews (${BREAK_GLASS_COLUMNS.join(', ')})
       VALUES (${BREAK_GLASS_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.#byApproval = db.prepare<[string], BreakGlassRow>(
      'SELECT * FROM break_glass_reviews WHERE approval_id = ?',
    );
    this.#open = db.prepare<[], BreakGlassRow>(
      'SELECT * FROM break_glass_reviews WHERE closed_at IS NULL ORDER BY at, approval_id',
    );
    this.#update = db.prepare(
      'UPDATE break_glass_reviews SET closers_json = ?, closed_at = ? WHERE approval_id = ?',
    );
  }

  async insert(review: BreakGlassReview): Promise<void> {
    this.#insert.run(...rowValues(review));
  }

  async byApproval(approvalId: string): Promise<BreakGlassReview | undefined> {
    const row = this.#byApproval.get(approvalId);
    return row === undefined ? undefined : reviewOf(row);
  }

  async byApprovals(approvalIds: readonly string[]): Promise<BreakGlassReview[]> {
    // Point reads of the primary key: as cheap as one statement over a list, in process.
    return approvalIds.flatMap((id) => {
      const row = this.#byApproval.get(id);
      return row === undefined ? [] : [reviewOf(row)];
    });
  }

  async open(): Promise<BreakGlassReview[]> {
    return this.#open.all().map(reviewOf);
  }

  async update(review: BreakGlassReview): Promise<boolean> {
    const changed = this.#update.run(
      JSON.stringify(review.closers),
      review.closedAt ?? null,
      review.approvalId,
    );
    return changed.changes === 1;
  }
}
