import { GENESIS_HASH } from '../../audit/hash.js';
import type { Db } from './database.js';
import { migrate } from './database.js';

const APPEND_ONLY = "SELECT RAISE(ABORT, 'audit log is append-only')";

/**
 * The log table and the triggers that keep it append-only. The insert trigger matters too:
 * `INSERT OR REPLACE` deletes the row it replaces WITHOUT firing delete triggers (unless
 * `recursive_triggers` is on), so only "next seq, linked to the current head" may be inserted.
 */
const V1: readonly string[] = [
  `CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    actor TEXT NOT NULL,
    front_end TEXT NOT NULL,
    tool TEXT NOT NULL,
    input TEXT NOT NULL,
    decision TEXT NOT NULL,
    event TEXT NOT NULL,
    approval_id TEXT,
    request_ids TEXT NOT NULL,
    outcome TEXT,
    error TEXT,
    duration_ms REAL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
  ) STRICT`,
  'CREATE INDEX audit_log_ts ON audit_log (ts)',
  'CREATE INDEX audit_log_tool ON audit_log (tool, seq)',
  'CREATE INDEX audit_log_actor ON audit_log (actor, seq)',
  'CREATE INDEX audit_log_approval ON audit_log (approval_id, seq) WHERE approval_id IS NOT NULL',
  `CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN ${APPEND_ONLY}; END`,
  `CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN ${APPEND_ONLY}; END`,
  `CREATE TRIGGER audit_log_append_at_head BEFORE INSERT ON audit_log
    WHEN NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM audit_log), 0) + 1
      OR NEW.prev_hash IS NOT COALESCE(
        (SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1),
        '${GENESIS_HASH}'
      )
    BEGIN SELECT RAISE(ABORT, 'audit log entries are appended at the head of the chain'); END`,
];

/**
 * A signed vote's proof (passkey assertion and signed content), as canonical JSON; NULL elsewhere.
 * The hash covers it only when present, so every entry written before keeps its hash.
 */
const V2: readonly string[] = ['ALTER TABLE audit_log ADD COLUMN evidence TEXT'];

/**
 * The policy version that decided (`{"hash":…,"version":N}`, canonical JSON); NULL on entries written
 * before versions, whose hash does not cover it.
 */
const V3: readonly string[] = ['ALTER TABLE audit_log ADD COLUMN policy TEXT'];

export function migrateAuditLog(db: Db): void {
  migrate(db, 'audit/001-log', V1);
  migrate(db, 'audit/002-evidence', V2);
  migrate(db, 'audit/003-policy', V3);
}
