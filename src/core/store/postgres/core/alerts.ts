import type pg from 'pg';
import type { AlertChange, AlertRow, AlertStore, BalanceAlert } from '../../../alerts/store.js';
import { ALERT_COLUMNS, alertOf } from '../../../alerts/store.js';

/** Balance alerts in PostgreSQL. */
export class PgAlertStore implements AlertStore {
  constructor(private readonly client: pg.ClientBase) {}

  async add(alert: BalanceAlert): Promise<void> {
    await this.client.query(
      `INSERT INTO balance_alerts (${ALERT_COLUMNS.join(', ')}) VALUES (${ALERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
      [
        alert.id,
        alert.currency,
        alert.thresholdMinor,
        alert.channel,
        alert.createdBy,
        alert.createdAt,
        alert.level,
        alert.readFailing,
        alert.posts,
        alert.checkedAt,
      ],
    );
  }

  async list(): Promise<BalanceAlert[]> {
    const result = await this.client.query<AlertRow>('SELECT * FROM balance_alerts ORDER BY created_at, id');
    return result.rows.map(alertOf);
  }

  async get(id: string): Promise<BalanceAlert | undefined> {
    const row = (await this.client.query<AlertRow>('SELECT * FROM balance_alerts WHERE id = $1', [id]))
      .rows[0];
    return row === undefined ? undefined : alertOf(row);
  }

  async remove(id: string): Promise<boolean> {
    return (await this.client.query('DELETE FROM balance_alerts WHERE id = $1', [id])).rowCount === 1;
  }

  async update(id: string, expectedPosts: number, change: AlertChange): Promise<boolean> {
    const result = await this.client.query(
      'UPDATE balance_alerts SET level = $1, read_failing = $2, posts = $3, checked_at = $4 WHERE id = $5 AND posts = $6',
      [change.level, change.readFailing, change.posts, change.checkedAt, id, expectedPosts],
    );
    return result.rowCount === 1;
  }
}
