import { type Db, migrate } from './database.js';

/**
 * The open states, as SQL: the partial unique indexes below allow one open approval per request.
 * `unresolved` counts as open: the money may have left, so an identical request joins it instead
 * of opening a second payment.
 */
const OPEN = `('pending', 'approved', 'executing', 'unresolved')`;

const STATES = `('pending', 'approved', 'executing', 'succeeded', 'failed', 'rejected', 'expired',
  'cancelled', 'unresolved')`;

const APPROVALS_TABLE = (name: string) => `CREATE TABLE ${name} (
     id TEXT PRIMARY KEY,
     tool TEXT NOT NULL,
     -- The validated input; tools whose input holds secrets never get here (the executor refuses them).
     input_json TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     idempotency_key TEXT,
     requester_id TEXT NOT NULL,
     requester_json TEXT NOT NULL,
     -- The person the policy tied the requester to when the approval opened (or the requester id).
     requester_person TEXT NOT NULL,
     -- Where it came from (front end, display name, a reply address the front end chose).
     origin_json TEXT NOT NULL,
     -- Where the rule wants it decided (a Slack channel), or NULL for the default.
     route_json TEXT,
     state TEXT NOT NULL CHECK (state IN ${STATES}),
     required_approvers INTEGER NOT NULL CHECK (required_approvers >= 1),
     approver_role TEXT NOT NULL,
     policy_rule TEXT NOT NULL,
     policy_reason TEXT NOT NULL,
     preview_json TEXT,
     bound_json TEXT,
     checkpoints_json TEXT NOT NULL DEFAULT '{}',
     result_json TEXT,
     error_json TEXT,
     request_id TEXT NOT NULL,
     attempt INTEGER NOT NULL DEFAULT 1,
     -- Sends of this attempt to the service, across processes: bounded before a person must reconcile.
     sends INTEGER NOT NULL DEFAULT 0,
     owner TEXT,
     lease_until TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     decided_by TEXT,
     decision_reason TEXT,
     -- After the money was sent: its status at the service, followed until final.
     settlement_json TEXT,
     settle_next_at TEXT,
     settle_polls INTEGER NOT NULL DEFAULT 0
   ) STRICT`;

const INDEXES = [
  // An identical request joins the open approval; another idempotency key is another operation.
  `CREATE UNIQUE INDEX approvals_open_fingerprint ON approvals (fingerprint, coalesce(idempotency_key, ''))
     WHERE state IN ${OPEN}`,
  `CREATE UNIQUE INDEX approvals_open_key ON approvals (requester_id, tool, idempotency_key)
     WHERE idempotency_key IS NOT NULL AND state IN ${OPEN}`,
  'CREATE INDEX approvals_by_state ON approvals (state, created_at)',
  'CREATE INDEX approvals_by_key ON approvals (requester_id, tool, idempotency_key)',
  "CREATE INDEX approvals_pending_expiry ON approvals (expires_at) WHERE state = 'pending'",
  'CREATE INDEX approvals_settle_due ON approvals (settle_next_at) WHERE settle_next_at IS NOT NULL',
];

const VOTES_TABLE = `CREATE TABLE approval_votes (
     approval_id TEXT NOT NULL REFERENCES approvals (id),
     attempt INTEGER NOT NULL,
     -- Each person counts once, whichever of their identities (Slack, CLI, MCP key) voted.
     person TEXT NOT NULL,
     approver_id TEXT NOT NULL,
     approver_json TEXT NOT NULL,
     voted_at TEXT NOT NULL,
     PRIMARY KEY (approval_id, attempt, person)
   ) STRICT`;

const FIRST = [APPROVALS_TABLE('approvals'), ...INDEXES, VOTES_TABLE];

/**
 * Version 2: the `unresolved` state (a CHECK constraint cannot be altered, so the table is rebuilt),
 * people, origin, route and settlement columns, votes per person. Rows of version 1 keep their
 * history: the requester is their own person, a vote's person its approver.
 */
const SECOND = [
  APPROVALS_TABLE('approvals_v2'),
  `INSERT INTO approvals_v2 (id, tool, input_json, fingerprint, idempotency_key, requester_id, requester_json,
     requester_person, origin_json, state, required_approvers, approver_role, policy_rule, policy_reason,
     preview_json, bound_json, checkpoints_json, result_json, error_json, request_id, attempt, owner,
     lease_until, created_at, updated_at, expires_at, decided_by, decision_reason)
   SELECT id, tool, input_json, fingerprint, idempotency_key, requester_id, requester_json, requester_id,
     json_object('frontEnd', json_extract(requester_json, '$.frontEnd'), 'displayName', requester_id),
     state, required_approvers, approver_role, policy_rule, policy_reason, preview_json, bound_json,
     checkpoints_json, result_json, error_json, request_id, attempt, owner, lease_until, created_at,
     updated_at, expires_at, decided_by, decision_reason
   FROM approvals`,
  'CREATE TEMP TABLE approval_votes_v1 AS SELECT * FROM approval_votes',
  'DROP TABLE approval_votes',
  'DROP TABLE approvals',
  'ALTER TABLE approvals_v2 RENAME TO approvals',
  ...INDEXES,
  VOTES_TABLE,
  `INSERT INTO approval_votes (approval_id, attempt, person, approver_id, approver_json, voted_at)
   SELECT approval_id, attempt, approver_id, approver_id, approver_json, voted_at FROM approval_votes_v1`,
  'DROP TABLE approval_votes_v1',
];

/** The change feed (decision 14): every change of an approval, in commit order, and who read how far. */
const FEED = [
  `CREATE TABLE approval_events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     approval_id TEXT NOT NULL REFERENCES approvals (id),
     kind TEXT NOT NULL,
     at TEXT NOT NULL,
     -- The approval's state and attempt right after the change.
     state TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     actor TEXT,
     person TEXT,
     detail TEXT
   ) STRICT`,
  'CREATE INDEX approval_events_by_approval ON approval_events (approval_id, seq)',
  `CREATE TABLE feed_cursors (
     consumer TEXT PRIMARY KEY,
     seq INTEGER NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
];

/**
 * Step-up: the rule's requirement, fixed when the approval opens (like its quorum), and the proof a
 * signed vote keeps (the passkey assertion and what it signed).
 */
const STEP_UP = [
  'ALTER TABLE approvals ADD COLUMN step_up TEXT',
  'ALTER TABLE approval_votes ADD COLUMN evidence_json TEXT',
];

/** The policy version an approval opened under (docs/policy.md "Versions"); NULL before. */
const POLICY_VERSION = ['ALTER TABLE approvals ADD COLUMN policy_version INTEGER'];

export function migrateApprovals(db: Db): void {
  // A new database gets version 2 directly; one made by version 1 is converted in one transaction.
  const existed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'approvals'").get();
  if (existed === undefined) {
    migrate(db, 'approvals-1', []);
    migrate(db, 'approvals-2', FIRST);
  } else {
    migrate(db, 'approvals-2', SECOND);
  }
  migrate(db, 'approval-feed-1', FEED);
  migrate(db, 'approvals-3-step-up', STEP_UP);
  migrate(db, 'approvals-4-policy-version', POLICY_VERSION);
  migrate(db, 'approvals-4-groups', ['ALTER TABLE approvals ADD COLUMN groups_json TEXT']);
}
