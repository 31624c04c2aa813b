import type Database from 'better-sqlite3';
import type { HoldCount, HoldSums, MoneyHold, MoneyHoldStore } from '../../totals/store.js';
import { holdValues } from '../rows/holds.js';
import { type Db, migrate } from './database.js';

const COLUMNS = {
  requester: 'requester',
  beneficiary: 'beneficiary',
  sourceAccount: 'source_account',
} as const;

// Covering indexes of the rows still counted: a window's sum reads only its own subject's rows.
const SCHEMA = [
  `CREATE TABLE money_holds (
     id TEXT PRIMARY KEY,
     at_ms INTEGER NOT NULL,
     requester TEXT NOT NULL,
     beneficiary TEXT,
     source_account TEXT,
     currency TEXT NOT NULL,
     amount_minor INTEGER NOT NULL,
     approval_id TEXT,
     released_at_ms INTEGER
   ) STRICT`,
  ...Object.values(COLUMNS).map(
    (column) =>
      `CREATE INDEX money_holds_${column} ON money_holds (${column}, currency, at_ms, amount_minor, approval_id)
         WHERE released_at_ms IS NULL`,
  ),
  `CREATE INDEX money_holds_company ON money_holds (currency, at_ms, amount_minor, approval_id)
     WHERE released_at_ms IS NULL`,
  'CREATE INDEX money_holds_approval ON money_holds (approval_id) WHERE approval_id IS NOT NULL',
];

export function migrateHolds(db: Db): void {
  migrate(db, 'holds/001-money-holds', SCHEMA);
}

/** The running totals' rows in SQLite; the write transaction (BEGIN IMMEDIATE) serialises admissions. */
export class SqliteMoneyHoldStore implements MoneyHoldStore {
  readonly #db: Db;
  readonly #insert;
  readonly #release;
  readonly #releaseApproval;
  readonly #sums = new Map<string, Database.Statement>();

  constructor(db: Db) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO money_holds (id, at_ms, requester, beneficiary, source_account, currency, amount_minor, approval_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#releaseApproval = db.prepare(
      'UPDATE money_holds SET released_at_ms = ? WHERE approval_id = ? AND released_at_ms IS NULL',
    );
    this.#release = db.prepare(
      'UPDATE money_holds SET released_at_ms = ? WHERE id = ? AND released_at_ms IS NULL',
    );
  }

  /** Inside BEGIN IMMEDIATE no other connection writes until this transaction ends: no lock of its own. */
  async count({ queries }: HoldCount): Promise<number[][]> {
    return queries.map((query) => this.#sum(query));
  }

  #sum(query: HoldSums): number[] {
    const key = `${query.of}/${query.since.length}`;
    let statement = this.#sums.get(key);
    if (statement === undefined) {
      const column = query.of === 'company' ? undefined : COLUMNS[query.of];
      const each = query.since.map(
        (_, i) => `COALESCE(SUM(CASE WHEN h.at_ms >= ? THEN h.amount_minor END), 0) AS s${i}`,
      );
      statement = this.#db.prepare(
        `SELECT ${each.join(', ')}
           FROM money_holds h
          WHERE ${column === undefined ? '' : `h.${column} = ? AND `}h.currency = ? AND h.at_ms >= ?
            AND h.released_at_ms IS NULL`,
      );
      this.#sums.set(key, statement);
    }
    const from = Math.min(...query.since);
    const subject = query.of === 'company' ? [] : [query.subject ?? ''];
    const row = statement.get(...query.since, ...subject, query.currency, from) as Record<string, number>;
    return query.since.map((_, i) => Number(row[`s${i}`] ?? 0));
  }

  async insert(hold: MoneyHold): Promise<void> {
    this.#insert.run(...holdValues(hold));
  }

  async release(id: string, at: number): Promise<void> {
    this.#release.run(at, id);
  }

  async releaseApproval(approvalId: string, at: number): Promise<void> {
    this.#releaseApproval.run(at, approvalId);
  }
}
