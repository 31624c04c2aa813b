import type pg from 'pg';
import type { ExecutionStore, KeyedRun } from '../../../executions.js';
import type { ExecuteResult } from '../../../results.js';
import { type ExecutionRow, keyedRunOf } from '../../rows/executions.js';
import { pgJson } from '../json.js';

/** Direct runs that carried an idempotency key, in PostgreSQL. */
export class PgExecutionStore implements ExecutionStore {
  constructor(private readonly client: pg.ClientBase) {}

  async forgetUnkeyed(tools: readonly string[]): Promise<void> {
    if (tools.length === 0) return;
    // The server reuses a deleted row's space once vacuumed; no file of ours keeps the bytes.
    await this.client.query(
      `DELETE FROM executions WHERE tool = ANY($1::text[]) AND fingerprint NOT LIKE 'k1:%'`,
      [[...tools]],
    );
  }

  async get(actor: string, tool: string, key: string): Promise<KeyedRun | undefined> {
    const rows = await this.client.query<ExecutionRow>(
      'SELECT fingerprint, request_id, result_json FROM executions WHERE actor = $1 AND tool = $2 AND idempotency_key = $3',
      [actor, tool, key],
    );
    const row = rows.rows[0];
    return row === undefined ? undefined : keyedRunOf(pgJson, row);
  }

  async reserve(
    actor: string,
    tool: string,
    key: string,
    fingerprint: string,
    requestId: string,
  ): Promise<void> {
    await this.client.query(
      `INSERT INTO executions (actor, tool, idempotency_key, fingerprint, request_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [actor, tool, key, fingerprint, requestId, new Date().toISOString()],
    );
  }

  async finish(actor: string, tool: string, key: string, result: ExecuteResult): Promise<void> {
    await this.client.query(
      'UPDATE executions SET result_json = $1 WHERE actor = $2 AND tool = $3 AND idempotency_key = $4',
      [pgJson.write(result), actor, tool, key],
    );
  }
}
