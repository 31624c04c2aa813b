import type { ClaimStore } from '../../schedule/claims.js';
import { type Db, migrate } from './database.js';

export const CLAIMS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS schedule_claims (
     claim_key TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     claimed_at TEXT NOT NULL
   )`,
];

/** The claims by age, for pruning. */
export const CLAIMS_BY_AGE = [
  'CREATE INDEX IF NOT EXISTS schedule_claims_claimed_at ON schedule_claims (claimed_at)',
];

export function migrateClaims(db: Db): void {
  migrate(db, 'schedule-1', CLAIMS_SCHEMA);
  migrate(db, 'schedule-2', CLAIMS_BY_AGE);
}

/** Claims on scheduled work, in SQLite: the primary key lets one insert through. */
export class SqliteClaimStore implements ClaimStore {
  readonly #insert;
  readonly #get;
  readonly #prune;

  constructor(db: Db) {
    this.#insert = db.prepare(
      'INSERT INTO schedule_claims (claim_key, owner, claimed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.#get = db.prepare('SELECT 1 FROM schedule_claims WHERE claim_key = ?');
    this.#prune = db.prepare('DELETE FROM schedule_claims WHERE claimed_at < ?');
  }

  async claim(key: string, owner: string, at: Date): Promise<boolean> {
    return this.#insert.run(key, owner, at.toISOString()).changes === 1;
  }

  async claimed(key: string): Promise<boolean> {
    return this.#get.get(key) !== undefined;
  }

  async prune(before: Date): Promise<number> {
    return this.#prune.run(before.toISOString()).changes;
  }
}
