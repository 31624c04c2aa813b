import {
  type NewPolicyVersion,
  POLICY_VERSION_COLUMNS,
  type PolicyVersion,
  type PolicyVersionRow,
  type PolicyVersionStore,
  policyVersionOf,
  policyVersionValues,
} from '../../policy/versions.js';
import { type Db, migrate } from './database.js';

const POLICY_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS policy_versions (
     version INTEGER PRIMARY KEY,
     text TEXT NOT NULL,
     hash TEXT NOT NULL,
     source TEXT NOT NULL,
     proposed_by TEXT NOT NULL,
     approved_by TEXT NOT NULL,
     created_at TEXT NOT NULL
   )`,
];

export function migratePolicies(db: Db): void {
  migrate(db, 'policy/001-versions', POLICY_SCHEMA);
}

/** The policy's versions in SQLite; the write lock of the transaction makes `append` a compare-and-set. */
export class SqlitePolicyVersionStore implements PolicyVersionStore {
  readonly #latest;
  readonly #one;
  readonly #all;
  readonly #insert;

  constructor(db: Db) {
    this.#latest = db.prepare('SELECT * FROM policy_versions ORDER BY version DESC LIMIT 1');
    this.#one = db.prepare('SELECT * FROM policy_versions WHERE version = ?');
    this.#all = db.prepare('SELECT * FROM policy_versions ORDER BY version');
    this.#insert = db.prepare(
      `INSERT INTO policy_versions (${POLICY_VERSION_COLUMNS.join(', ')})
       SELECT ${POLICY_VERSION_COLUMNS.map(() => '?').join(', ')}
       WHERE (SELECT COALESCE(MAX(version), 0) FROM policy_versions) = ?`,
    );
  }

  async latest(): Promise<PolicyVersion | undefined> {
    const row = this.#latest.get() as PolicyVersionRow | undefined;
    return row === undefined ? undefined : policyVersionOf(row);
  }

  async get(version: number): Promise<PolicyVersion | undefined> {
    const row = this.#one.get(version) as PolicyVersionRow | undefined;
    return row === undefined ? undefined : policyVersionOf(row);
  }

  async list(): Promise<PolicyVersion[]> {
    return (this.#all.all() as PolicyVersionRow[]).map(policyVersionOf);
  }

  async append(next: NewPolicyVersion, expected: number): Promise<PolicyVersion | undefined> {
    const version = expected + 1;
    const result = this.#insert.run(...policyVersionValues(version, next), expected);
    return result.changes === 1 ? { version, ...next } : undefined;
  }
}
