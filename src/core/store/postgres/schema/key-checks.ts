/**
 * Version 9: check values of keys kept outside the database (an HMAC of a fixed label under the
 * fingerprint key, never the key), so a replica with another key refuses to start (statements in
 * ../key-checks.ts; SQLite's table in ../../sqlite/key-checks.ts, `key-checks-1`).
 */
export const KEY_CHECKS_V9: readonly string[] = [
  `CREATE TABLE key_checks (
     name text PRIMARY KEY,
     value text NOT NULL,
     at bigint NOT NULL
   )`,
];
