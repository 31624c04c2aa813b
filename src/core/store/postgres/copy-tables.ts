/**
 * What `bankops db copy` moves from the SQLite file to PostgreSQL, table by table, parents before
 * children. Columns keep their names; where the PostgreSQL schema (./schema/)
 * types a column differently, `convert` says how a SQLite value becomes it (`u.<column>` is the
 * value as sent), and `fill` gives PostgreSQL-only columns a value.
 */
import { ALERT_COLUMNS } from '../../alerts/store.js';
import { BREAK_GLASS_COLUMNS } from '../../approvals/break-glass-store.js';
import { AUDIT_COLUMNS } from '../../audit/store.js';
import { POLICY_VERSION_COLUMNS } from '../../policy/versions.js';
import { APPROVAL_COLUMNS } from '../rows/approvals.js';

/** How a column's values travel: one array parameter of this type per column. */
export type ArrayType = 'text' | 'int' | 'bigint' | 'float8';

export interface CopiedTable {
  name: string;
  /** Source columns, in the order they are read and sent. */
  columns: readonly string[];
  /** Columns that are not text. */
  types?: Readonly<Record<string, ArrayType>>;
  /** SQL computing the target column from `u.<column>`. */
  convert?: Readonly<Record<string, string>>;
  /** Target-only columns and their SQL value. */
  fill?: Readonly<Record<string, string>>;
  /** Columns holding JSON: text in SQLite, `json` in PostgreSQL (the text is kept as it is). */
  json?: readonly string[];
  /** A `GENERATED ALWAYS` identity copied as it is; its sequence then continues after the largest. */
  identity?: string;
}

/** Milliseconds since the epoch (0: never) as a timestamptz. */
const fromMillis = (column: string): string =>
  `CASE WHEN u.${column} = 0 THEN '-infinity'::timestamptz ELSE to_timestamp(u.${column} / 1000.0) END`;

export const COPIED_TABLES: readonly CopiedTable[] = [
  {
    name: 'approvals',
    columns: APPROVAL_COLUMNS,
    types: {
      required_approvers: 'int',
      attempt: 'int',
      sends: 'int',
      settle_polls: 'int',
      policy_version: 'int',
    },
    json: APPROVAL_COLUMNS.filter((column) => column.endsWith('_json')),
    // An ISO time in SQLite; compared with the database's clock on PostgreSQL.
    convert: { lease_until: 'u.lease_until::timestamptz' },
  },
  {
    name: 'approval_votes',
    columns: [
      'approval_id',
      'attempt',
      'person',
      'approver_id',
      'approver_json',
      'voted_at',
      'evidence_json',
    ],
    types: { attempt: 'int' },
    json: ['approver_json', 'evidence_json'],
  },
  {
    // Every copied event gets the copy's transaction id: one transaction, read in seq order.
    name: 'approval_events',
    columns: ['seq', 'approval_id', 'kind', 'at', 'state', 'attempt', 'actor', 'person', 'detail'],
    types: { seq: 'bigint', attempt: 'int' },
    identity: 'seq',
  },
  {
    // A cursor past seq N stands after the copied events up to N (all of the copy's transaction),
    // before those after N and before every later transaction's; a cursor at 0 before them all.
    name: 'feed_cursors',
    columns: ['consumer', 'seq', 'updated_at'],
    types: { seq: 'bigint' },
    convert: { updated_at: 'u.updated_at::timestamptz' },
    fill: { xid: "CASE WHEN u.seq = 0 THEN '0'::xid8 ELSE pg_current_xact_id() END" },
  },
  {
    name: 'audit_log',
    columns: AUDIT_COLUMNS,
    types: { seq: 'bigint', duration_ms: 'float8' },
  },
  {
    name: 'executions',
    columns: ['actor', 'tool', 'idempotency_key', 'fingerprint', 'request_id', 'result_json', 'created_at'],
    json: ['result_json'],
  },
  {
    // Slots of scheduled work already done (a reminder sent, a digest posted): not done again after the move.
    name: 'schedule_claims',
    columns: ['claim_key', 'owner', 'claimed_at'],
  },
  {
    // Balance alerts with the state of their last check: a crossing already posted is not posted again.
    name: 'balance_alerts',
    columns: ALERT_COLUMNS,
    types: { threshold_minor: 'bigint', read_failing: 'int', posts: 'int' },
    convert: { read_failing: 'u.read_failing <> 0' },
  },
  {
    // Every version of the policy: the newest is the one in force, and audit entries name them.
    name: 'policy_versions',
    columns: POLICY_VERSION_COLUMNS,
    types: { version: 'int' },
  },
  {
    name: 'passkeys',
    columns: [
      'credential_id',
      'person',
      'name',
      'public_key',
      'counter',
      'transports',
      'created_at',
      'last_used_at',
      'revoked_at',
    ],
    types: { counter: 'bigint' },
    json: ['transports'],
  },
  {
    name: 'passkey_links',
    columns: [
      'digest',
      'purpose',
      'person',
      'actor_json',
      'approval_id',
      'created_at',
      'expires_at',
      'challenge',
      'used_at',
      'reason',
    ],
    json: ['actor_json'],
  },
  { name: 'payees', columns: ['id', 'record_json', 'updated_at'], json: ['record_json'] },
  {
    name: 'payee_payouts',
    columns: ['request_id', 'beneficiary_id', 'amount', 'currency', 'at'],
    types: { amount: 'float8' },
  },
  {
    name: 'money_holds',
    columns: [
      'id',
      'at_ms',
      'requester',
      'beneficiary',
      'source_account',
      'currency',
      'amount_minor',
      'approval_id',
      'released_at_ms',
    ],
    types: { at_ms: 'bigint', amount_minor: 'bigint', released_at_ms: 'bigint' },
  },
  {
    name: 'break_glass_reviews',
    columns: BREAK_GLASS_COLUMNS,
    types: { needed: 'int' },
    json: ['closers_json'],
  },
  {
    name: 'cards',
    columns: ['card_id', 'cardholder_id', 'wallet_id', 'last_four', 'seen_at'],
    types: { seen_at: 'bigint' },
  },
  {
    name: 'service_webhook_keys',
    columns: ['key_digest', 'event_name', 'channel_id', 'created_by', 'created_at'],
    types: { created_at: 'bigint' },
  },
  { name: 'slack_seen_events', columns: ['event_id', 'seen_at'], types: { seen_at: 'bigint' } },
  {
    name: 'slack_pages',
    columns: ['id', 'user_id', 'tool', 'pages_json', 'shareable', 'created_at'],
    types: { shareable: 'int', created_at: 'bigint' },
    convert: { shareable: 'u.shareable <> 0' },
    json: ['pages_json'],
  },
  {
    name: 'service_deliveries',
    columns: ['event_id', 'event_name', 'received_at'],
    types: { received_at: 'bigint' },
  },
  {
    // Every message in the default lane (`ordering_key` ''), in the SQLite queue's order.
    name: 'slack_outbox',
    columns: [
      'id',
      'dedupe_key',
      'method',
      'args_json',
      'created_at',
      'attempts',
      'next_at',
      'lease_until',
      'done_at',
      'error',
    ],
    types: {
      id: 'bigint',
      created_at: 'bigint',
      attempts: 'int',
      next_at: 'bigint',
      lease_until: 'bigint',
      done_at: 'bigint',
    },
    convert: { lease_until: fromMillis('lease_until') },
    identity: 'id',
    json: ['args_json'],
  },
  {
    name: 'slack_approval_messages',
    columns: ['approval_id', 'channel', 'ts', 'claimed_until', 'posted_at', 'rendered'],
    types: { claimed_until: 'bigint', posted_at: 'bigint' },
    convert: { claimed_until: fromMillis('claimed_until') },
  },
  { name: 'key_checks', columns: ['name', 'value', 'at'], types: { at: 'bigint' } },
];

/** Tables only PostgreSQL has that a deployment fills (a target holding rows there is not empty). */
export const TARGET_ONLY_TABLES: readonly string[] = ['audit_flushes'];

/**
 * One multi-row insert of a table: each column's values as one array (`unnest`), so a batch is
 * one statement with as many parameters as columns, whatever its number of rows.
 */
export function insertSql(table: CopiedTable): string {
  const arrays = table.columns.map((c, i) => `$${i + 1}::${table.types?.[c] ?? 'text'}[]`);
  const fills = Object.entries(table.fill ?? {});
  const targets = [...table.columns, ...fills.map(([name]) => name)];
  const values = [
    ...table.columns.map((c) => table.convert?.[c] ?? (table.json?.includes(c) ? `u.${c}::json` : `u.${c}`)),
    ...fills.map(([, sql]) => sql),
  ];
  const overriding = table.identity === undefined ? '' : ' OVERRIDING SYSTEM VALUE';
  return `INSERT INTO ${table.name} (${targets.join(', ')})${overriding}
    SELECT ${values.join(', ')} FROM unnest(${arrays.join(', ')}) AS u(${table.columns.join(', ')})`;
}
