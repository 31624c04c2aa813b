/**
 * Version 6: every column holding JSON becomes `json`, so the database itself refuses what is not
 * JSON and its values can be read in SQL (`input_json ->> 'amount'`); the stores hand the engine
 * typed values, read by the driver (../json.ts).
 *
 * `json`, not `jsonb`: `jsonb` keeps an object's keys in an order of its own (shortest first), and
 * an approval's input, preview and result reach people in the order they were given (Slack's
 * approval message lists the input field by field; the CLI and MCP print the JSON as stored). The
 * audit log's JSON columns stay text: each entry's hash is over their exact characters.
 *
 * A replica of an earlier version reads these columns as text and cannot read them as `json`:
 * stop every replica, run `bankops db migrate`, then start the new version (docs/deploy.md,
 * "Upgrading"). Each column is cast in place, in this version's one transaction.
 */
const toJson = (table: string, columns: readonly string[]): string =>
  `ALTER TABLE ${table} ${columns.map((c) => `ALTER COLUMN ${c} TYPE json USING ${c}::json`).join(', ')}`;

export const JSON_COLUMNS_V6: readonly string[] = [
  // A text default cannot be cast with its column: dropped first and given again as JSON.
  'ALTER TABLE approvals ALTER COLUMN checkpoints_json DROP DEFAULT',
  toJson('approvals', [
    'input_json',
    'requester_json',
    'origin_json',
    'route_json',
    'preview_json',
    'bound_json',
    'checkpoints_json',
    'result_json',
    'error_json',
    'settlement_json',
  ]),
  `ALTER TABLE approvals ALTER COLUMN checkpoints_json SET DEFAULT '{}'::json`,
  toJson('approval_votes', ['approver_json', 'evidence_json']),
  toJson('executions', ['result_json']),
  'ALTER TABLE passkeys ALTER COLUMN transports DROP DEFAULT',
  toJson('passkeys', ['transports']),
  `ALTER TABLE passkeys ALTER COLUMN transports SET DEFAULT '[]'::json`,
  toJson('passkey_links', ['actor_json']),
  toJson('payees', ['record_json']),
  toJson('slack_pages', ['pages_json']),
  toJson('slack_outbox', ['args_json']),
];
