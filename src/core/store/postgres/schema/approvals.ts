/**
 * Version 1: approvals, their votes and their change feed (`ApprovalStore`, `FeedStore`), as in
 * SQLite (../../sqlite/approvals-schema.ts) with PostgreSQL types; their statements are in
 * ../core/approvals.ts and ../core/feed.ts, the columns' codec in ../../rows/approvals.ts.
 * Differences: `lease_until` is a `timestamptz` compared with the database's clock (replicas' clocks
 * may disagree), and each feed event keeps the id of the transaction that wrote it, which is how the
 * feed is read in commit order (see ../feed.ts). The `_json` columns are `json` since version 6
 * (./json-columns.ts).
 */
const OPEN = `('pending', 'approved', 'executing', 'unresolved')`;
const STATES = `('pending', 'approved', 'executing', 'succeeded', 'failed', 'rejected', 'expired',
  'cancelled', 'unresolved')`;

export const APPROVALS_V1: readonly string[] = [
  `CREATE TABLE approvals (
     id text PRIMARY KEY,
     tool text NOT NULL,
     input_json text NOT NULL,
     fingerprint text NOT NULL,
     idempotency_key text,
     requester_id text NOT NULL,
     requester_json text NOT NULL,
     requester_person text NOT NULL,
     origin_json text NOT NULL,
     route_json text,
     state text NOT NULL CHECK (state IN ${STATES}),
     required_approvers integer NOT NULL CHECK (required_approvers >= 1),
     approver_role text NOT NULL,
     policy_rule text NOT NULL,
     policy_reason text NOT NULL,
     preview_json text,
     bound_json text,
     checkpoints_json text NOT NULL DEFAULT '{}',
     result_json text,
     error_json text,
     request_id text NOT NULL,
     attempt integer NOT NULL DEFAULT 1,
     sends integer NOT NULL DEFAULT 0,
     owner text,
     lease_until timestamptz,
     created_at text NOT NULL,
     updated_at text NOT NULL,
     expires_at text NOT NULL,
     decided_by text,
     decision_reason text,
     settlement_json text,
     settle_next_at text,
     settle_polls integer NOT NULL DEFAULT 0,
     step_up text
   )`,
  `CREATE UNIQUE INDEX approvals_open_fingerprint ON approvals (fingerprint, coalesce(idempotency_key, ''))
     WHERE state IN ${OPEN}`,
  `CREATE UNIQUE INDEX approvals_open_key ON approvals (requester_id, tool, idempotency_key)
     WHERE idempotency_key IS NOT NULL AND state IN ${OPEN}`,
  'CREATE INDEX approvals_by_state ON approvals (state, created_at)',
  'CREATE INDEX approvals_by_key ON approvals (requester_id, tool, idempotency_key)',
  "CREATE INDEX approvals_pending_expiry ON approvals (expires_at) WHERE state = 'pending'",
  'CREATE INDEX approvals_settle_due ON approvals (settle_next_at) WHERE settle_next_at IS NOT NULL',
  "CREATE INDEX approvals_lease ON approvals (lease_until) WHERE state = 'executing'",
  `CREATE TABLE approval_votes (
     approval_id text NOT NULL REFERENCES approvals (id),
     attempt integer NOT NULL,
     person text NOT NULL,
     approver_id text NOT NULL,
     approver_json text NOT NULL,
     voted_at text NOT NULL,
     evidence_json text,
     PRIMARY KEY (approval_id, attempt, person)
   )`,
  `CREATE TABLE approval_events (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     -- The writing transaction: readers take only rows of transactions older than every one still
     -- running, in (xid, seq) order, so a row that commits late is never behind a reader's cursor.
     xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
     approval_id text NOT NULL REFERENCES approvals (id),
     kind text NOT NULL,
     at text NOT NULL,
     state text NOT NULL,
     attempt integer NOT NULL,
     actor text,
     person text,
     detail text
   )`,
  'CREATE UNIQUE INDEX approval_events_order ON approval_events (xid, seq)',
  'CREATE INDEX approval_events_by_approval ON approval_events (approval_id, seq)',
  // One row per consumer group: its position, locked by the replica handling the group's events.
  `CREATE TABLE feed_cursors (
     consumer text PRIMARY KEY,
     xid xid8 NOT NULL DEFAULT '0',
     seq bigint NOT NULL DEFAULT 0,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
];
