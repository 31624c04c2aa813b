/**
 * Version 13: break-glass uses and their reviews (statements in ../core/break-glass.ts; SQLite's
 * table in ../../sqlite/break-glass.ts, `breakglass-1`), with an index of the reviews still open.
 */
export const BREAK_GLASS_V13: readonly string[] = [
  `CREATE TABLE break_glass_reviews (
     approval_id text PRIMARY KEY,
     person text NOT NULL,
     actor_id text NOT NULL,
     reason text NOT NULL,
     at text NOT NULL,
     needed int NOT NULL,
     role text NOT NULL,
     closers_json json NOT NULL,
     closed_at text
   )`,
  'CREATE INDEX break_glass_reviews_open ON break_glass_reviews (at) WHERE closed_at IS NULL',
];

/**
 * Version 14: break-glass confirmed with a passkey (src/core/passkeys/links.ts): a third purpose of
 * one-time links, and the reason the passkey signs (NULL for the other purposes). As SQLite's
 * `passkeys-2-break-glass`.
 */
export const BREAK_GLASS_LINKS_V14: readonly string[] = [
  `ALTER TABLE passkey_links
     DROP CONSTRAINT passkey_links_purpose_check,
     ADD CONSTRAINT passkey_links_purpose_check CHECK (purpose IN ('enroll', 'approve', 'break_glass')),
     ADD COLUMN reason text`,
];
