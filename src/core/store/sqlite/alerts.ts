import type { AlertChange, AlertRow, AlertStore, BalanceAlert } from '../../alerts/store.js';
import { ALERT_COLUMNS, alertOf } from '../../alerts/store.js';
import { type Db, migrate } from './database.js';

export const ALERTS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS balance_alerts (
     id TEXT PRIMARY KEY,
     currency TEXT NOT NULL,
     threshold_minor INTEGER NOT NULL,
     channel TEXT NOT NULL,
     created_by TEXT NOT NULL,
     created_at TEXT NOT NULL,
     level TEXT NOT NULL,
     read_failing INTEGER NOT NULL,
     posts INTEGER NOT NULL,
     checked_at TEXT
   )`,
];

export function migrateAlerts(db: Db): void {
  migrate(db, 'alerts-1', ALERTS_SCHEMA);
}

/** Balance alerts in SQLite. */
export class SqliteAlertStore implements AlertStore {
  readonly #insert;
  readonly #all;
  readonly #one;
  readonly #delete;
  readonly #update;

  constructor(db: Db) {
    this.#insert = db.prepare(
      `INSERT INTO balance_alerts (${ALERT_COLUMNS.join(', ')}) VALUES (${ALERT_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.#all = db.prepare('SELECT * FROM balance_alerts ORDER BY created_at, id');
    this.#one = db.prepare('SELECT * FROM balance_alerts WHERE id = ?');
    this.#delete = db.prepare('DELETE FROM balance_alerts WHERE id = ?');
    this.#update = db.prepare(
      'UPDATE balance_alerts SET level = ?, read_failing = ?, posts = ?, checked_at = ? WHERE id = ? AND posts = ?',
    );
  }

  async add(alert: BalanceAlert): Promise<void> {
    this.#insert.run(
      alert.id,
      alert.currency,
      alert.thresholdMinor,
      alert.channel,
      alert.createdBy,
      alert.createdAt,
      alert.level,
      alert.readFailing ? 1 : 0,
      alert.posts,
      alert.checkedAt,
    );
  }

  async list(): Promise<BalanceAlert[]> {
    return (this.#all.all() as AlertRow[]).map(alertOf);
  }

  async get(id: string): Promise<BalanceAlert | undefined> {
    const row = this.#one.get(id) as AlertRow | undefined;
    return row === undefined ? undefined : alertOf(row);
  }

  async remove(id: string): Promise<boolean> {
    return this.#delete.run(id).changes === 1;
  }

  async update(id: string, expectedPosts: number, change: AlertChange): Promise<boolean> {
    const result = this.#update.run(
      change.level,
      change.readFailing ? 1 : 0,
      change.posts,
      change.checkedAt,
      id,
      expectedPosts,
    );
    return result.changes === 1;
  }
}
