import type pg from 'pg';
import type { ClaimStore } from '../../../schedule/claims.js';

/** Claims on scheduled work, in PostgreSQL: the primary key lets one insert through. */
export class PgClaimStore implements ClaimStore {
  constructor(private readonly client: pg.ClientBase) {}

  async claim(key: string, owner: string, at: Date): Promise<boolean> {
    const result = await this.client.query(
      'INSERT INTO schedule_claims (claim_key, owner, claimed_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [key, owner, at.toISOString()],
    );
    return result.rowCount === 1;
  }

  async claimed(key: string): Promise<boolean> {
    const result = await this.client.query('SELECT 1 FROM schedule_claims WHERE claim_key = $1', [key]);
    return result.rowCount === 1;
  }

  async prune(before: Date): Promise<number> {
    const result = await this.client.query('DELETE FROM schedule_claims WHERE claimed_at < $1', [
      before.toISOString(),
    ]);
    return result.rowCount ?? 0;
  }
}
