import { GENESIS_HASH } from '../../../audit/hash.js';
import { LockKey } from '../locks.js';

/**
 * Version 1: the audit log (`AuditStore`), column for column as in SQLite
 * (../../sqlite/audit-schema.ts), so the same verification reads both (its JSON columns stay text:
 * the hashes are over their characters); its statements in ../core/audit.ts and ../audit.ts. Append-only twice over: the runtime role holds only INSERT and SELECT
 * (../roles.ts), and triggers refuse UPDATE, DELETE and TRUNCATE from anyone, the owner included,
 * unless the owner first disables them (which `audit verify` then catches by the hashes). A
 * statement-level check keeps each insert linked to the head of the chain.
 */
export const AUDIT_V1: readonly string[] = [
  `CREATE TABLE audit_log (
     seq bigint PRIMARY KEY CHECK (seq >= 1),
     ts text NOT NULL,
     actor text NOT NULL,
     front_end text NOT NULL,
     tool text NOT NULL,
     input text NOT NULL,
     decision text NOT NULL,
     event text NOT NULL,
     approval_id text,
     request_ids text NOT NULL,
     outcome text,
     error text,
     duration_ms double precision,
     evidence text,
     prev_hash text NOT NULL,
     hash text NOT NULL
   )`,
  'CREATE INDEX audit_log_ts ON audit_log (ts)',
  'CREATE INDEX audit_log_tool ON audit_log (tool, seq)',
  'CREATE INDEX audit_log_actor ON audit_log (actor, seq)',
  'CREATE INDEX audit_log_approval ON audit_log (approval_id, seq) WHERE approval_id IS NOT NULL',
  `CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'audit log is append-only' USING ERRCODE = 'insufficient_privilege';
   END $$`,
  `CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
     FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change()`,
  // Every inserted row follows the row before it (seq - 1, its hash as prev_hash); the primary key
  // refuses a second row at a seq, so the chain cannot fork.
  `CREATE FUNCTION audit_log_check_links() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF EXISTS (
       SELECT 1 FROM audit_added a LEFT JOIN audit_log p ON p.seq = a.seq - 1
       WHERE CASE WHEN a.seq = 1 THEN a.prev_hash <> '${GENESIS_HASH}'
                  ELSE p.seq IS NULL OR p.hash <> a.prev_hash END
     ) THEN
       RAISE EXCEPTION 'audit log entries are appended at the head of the chain'
         USING ERRCODE = 'check_violation';
     END IF;
     RETURN NULL;
   END $$`,
  // Waits for the chain's lock, then reads the head: one round trip. A volatile function's statements
  // each take a new snapshot, so the head is read after the lock is held (what the previous holder
  // committed), which one statement doing both could not guarantee.
  `CREATE FUNCTION audit_lock_head(OUT seq bigint, OUT hash text) LANGUAGE plpgsql VOLATILE AS $$
   BEGIN
     PERFORM pg_advisory_xact_lock(${LockKey.Audit});
     SELECT a.seq, a.hash INTO seq, hash FROM audit_log a ORDER BY a.seq DESC LIMIT 1;
     IF NOT FOUND THEN
       seq := 0;
       hash := '${GENESIS_HASH}';
     END IF;
   END $$`,
  // One row per audit writer: a durable batch commits without waiting for the disk (so the chain's
  // lock is not held through a flush), then updates its row with a synchronous commit, which flushes
  // the log up to and past the batch (see ../audit-flush.ts).
  `CREATE TABLE audit_flushes (
     writer text PRIMARY KEY,
     flushes bigint NOT NULL DEFAULT 0,
     at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TRIGGER audit_log_append_at_head AFTER INSERT ON audit_log
     REFERENCING NEW TABLE AS audit_added
     FOR EACH STATEMENT EXECUTE FUNCTION audit_log_check_links()`,
];
