import { type Db, migrate } from '../db.js';

/** The open states, as SQL: the partial unique indexes below allow one open approval per request. */
const OPEN = `('pending', 'approved', 'executing')`;

const STATEMENTS = [
  `CREATE TABLE approvals (
     id TEXT PRIMARY KEY,
     tool TEXT NOT NULL,
     -- The validated input; tools whose input holds secrets never get here (the executor refuses them).
     input_json TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     idempotency_key TEXT,
     requester_id TEXT NOT NULL,
     requester_json TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'executing', 'succeeded', 'failed',
       'rejected', 'expired', 'cancelled')),
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
     owner TEXT,
     lease_until TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     decided_by TEXT,
     decision_reason TEXT
   ) STRICT`,
  `CREATE UNIQUE INDEX approvals_open_fingerprint ON approvals (fingerprint) WHERE state IN ${OPEN}`,
  `CREATE UNIQUE INDEX approvals_open_key ON approvals (requester_id, tool, idempotency_key)
     WHERE idempotency_key IS NOT NULL AND state IN ${OPEN}`,
  'CREATE INDEX approvals_by_state ON approvals (state, created_at)',
  'CREATE INDEX approvals_by_key ON approvals (requester_id, tool, idempotency_key)',
  `CREATE TABLE approval_votes (
     approval_id TEXT NOT NULL REFERENCES approvals (id),
     approver_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     approver_json TEXT NOT NULL,
     voted_at TEXT NOT NULL,
     PRIMARY KEY (approval_id, approver_id, attempt)
   ) STRICT`,
];

export function migrateApprovals(db: Db): void {
  migrate(db, 'approvals-1', STATEMENTS);
}
