import { type Db, migrate } from './database.js';

/**
 * Passkeys and the one-time links that lead to the pages. A link's token is never stored: only its
 * SHA-256, so whoever reads the database cannot use a link that is still valid.
 */
const V1 = [
  `CREATE TABLE passkeys (
     credential_id TEXT PRIMARY KEY,
     person TEXT NOT NULL,
     name TEXT NOT NULL,
     -- The COSE public key, base64url: also in the audit entry of the enrolment, for offline checks.
     public_key TEXT NOT NULL,
     counter INTEGER NOT NULL,
     transports TEXT NOT NULL DEFAULT '[]',
     created_at TEXT NOT NULL,
     last_used_at TEXT,
     revoked_at TEXT
   ) STRICT`,
  'CREATE UNIQUE INDEX passkeys_active_name ON passkeys (person, name) WHERE revoked_at IS NULL',
  `CREATE TABLE passkey_links (
     digest TEXT PRIMARY KEY,
     purpose TEXT NOT NULL CHECK (purpose IN ('enroll', 'approve')),
     person TEXT NOT NULL,
     -- Enrolment: who made the link. Approval: the identity the vote is cast as.
     actor_json TEXT NOT NULL,
     approval_id TEXT,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     -- Enrolment: the registration challenge. Approval: the nonce of the signed content.
     challenge TEXT,
     used_at TEXT
   ) STRICT`,
  'CREATE INDEX passkey_links_expiry ON passkey_links (expires_at)',
];

/**
 * Break-glass links (docs/approvals.md "Break-glass"): a third purpose, and the reason the passkey
 * signs. SQLite cannot change a CHECK in place: the table is made anew and its links copied.
 */
const BREAK_GLASS = [
  `CREATE TABLE passkey_links_v2 (
     digest TEXT PRIMARY KEY,
     purpose TEXT NOT NULL CHECK (purpose IN ('enroll', 'approve', 'break_glass')),
     person TEXT NOT NULL,
     actor_json TEXT NOT NULL,
     approval_id TEXT,
     created_at TEXT NOT NULL,
     expires_at TEXT NOT NULL,
     challenge TEXT,
     used_at TEXT,
     -- Break-glass: the reason given with the command.
     reason TEXT
   ) STRICT`,
  `INSERT INTO passkey_links_v2 (digest, purpose, person, actor_json, approval_id, created_at, expires_at, challenge, used_at)
   SELECT digest, purpose, person, actor_json, approval_id, created_at, expires_at, challenge, used_at FROM passkey_links`,
  'DROP TABLE passkey_links',
  'ALTER TABLE passkey_links_v2 RENAME TO passkey_links',
  'CREATE INDEX passkey_links_expiry ON passkey_links (expires_at)',
];

export function migratePasskeys(db: Db): void {
  migrate(db, 'passkeys-1', V1);
  migrate(db, 'passkeys-2-break-glass', BREAK_GLASS);
}
