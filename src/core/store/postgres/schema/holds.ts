/**
 * Version 10: money moved or waiting to move, one row per admitted call, for running totals and
 * daily limits (statements in ../core/holds.ts; SQLite's table in ../../sqlite/holds.ts,
 * `holds/001-money-holds`). Covering indexes of the rows still counted, one per subject, so a
 * window's sum reads only that subject's rows whatever the history holds (an index-only scan: an
 * approval that ends without moving money releases its row, so no join with approvals is needed).
 */
export const HOLDS_V10: readonly string[] = [
  `CREATE TABLE money_holds (
     id text PRIMARY KEY,
     at_ms bigint NOT NULL,
     requester text NOT NULL,
     beneficiary text,
     source_account text,
     currency text NOT NULL,
     amount_minor bigint NOT NULL,
     approval_id text,
     released_at_ms bigint
   )`,
  ...['requester', 'beneficiary', 'source_account'].map(
    (column) =>
      `CREATE INDEX money_holds_${column} ON money_holds (${column}, currency, at_ms)
         INCLUDE (amount_minor) WHERE released_at_ms IS NULL`,
  ),
  `CREATE INDEX money_holds_company ON money_holds (currency, at_ms)
     INCLUDE (amount_minor) WHERE released_at_ms IS NULL`,
  'CREATE INDEX money_holds_approval ON money_holds (approval_id) WHERE approval_id IS NOT NULL',
];
