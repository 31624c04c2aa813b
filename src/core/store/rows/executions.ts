import type { KeyedRun } from '../../executions.js';
import { type JsonColumns, readNullable } from './json.js';

/** The columns of `executions` the store reads. */
export interface ExecutionRow {
  fingerprint: string;
  request_id: string;
  result_json: unknown;
}

/** The run a row holds, on a backend keeping JSON as `json` says. */
export const keyedRunOf = (json: JsonColumns, row: ExecutionRow): KeyedRun => ({
  fingerprint: row.fingerprint,
  requestId: row.request_id,
  result: readNullable(json, row.result_json) as KeyedRun['result'],
});
