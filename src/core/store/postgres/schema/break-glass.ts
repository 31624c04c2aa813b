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
