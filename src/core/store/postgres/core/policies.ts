import type pg from 'pg';
import {
  type NewPolicyVersion,
  POLICY_VERSION_COLUMNS,
  type PolicyVersion,
  type PolicyVersionRow,
  type PolicyVersionStore,
  policyVersionOf,
  policyVersionValues,
} from '../../../policy/versions.js';
import { FEED_CHANNEL, POLICY_PAYLOAD } from '../feed.js';

/**
 * The policy's versions in PostgreSQL. `append` inserts only while the newest is still the one the
 * caller read; the core's write lock serialises it with every other writer, and the primary key
 * refuses a second version N whatever happens.
 */
export class PgPolicyVersionStore implements PolicyVersionStore {
  constructor(private readonly client: pg.ClientBase) {}

  async latest(): Promise<PolicyVersion | undefined> {
    const result = await this.client.query<PolicyVersionRow>(
      'SELECT * FROM policy_versions ORDER BY version DESC LIMIT 1',
    );
    const row = result.rows[0];
    return row === undefined ? undefined : policyVersionOf(row);
  }

  async get(version: number): Promise<PolicyVersion | undefined> {
    const result = await this.client.query<PolicyVersionRow>(
      'SELECT * FROM policy_versions WHERE version = $1',
      [version],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : policyVersionOf(row);
  }

  async list(): Promise<PolicyVersion[]> {
    const result = await this.client.query<PolicyVersionRow>(
      'SELECT * FROM policy_versions ORDER BY version',
    );
    return result.rows.map(policyVersionOf);
  }

  async append(next: NewPolicyVersion, expected: number): Promise<PolicyVersion | undefined> {
    const version = expected + 1;
    const n = POLICY_VERSION_COLUMNS.length;
    const result = await this.client.query(
      `INSERT INTO policy_versions (${POLICY_VERSION_COLUMNS.join(', ')})
       SELECT ${POLICY_VERSION_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}
       WHERE (SELECT COALESCE(MAX(version), 0) FROM policy_versions) = $${n + 1}
       ON CONFLICT (version) DO NOTHING`,
      [...policyVersionValues(version, next), expected],
    );
    if (result.rowCount !== 1) return undefined;
    // Every process that decides looks at the newest version when this commits (delivered at
    // commit only, never replayed: its 5-second look stays the fallback).
    await this.client.query('SELECT pg_notify($1, $2)', [FEED_CHANNEL, POLICY_PAYLOAD]);
    return { version, ...next };
  }
}
