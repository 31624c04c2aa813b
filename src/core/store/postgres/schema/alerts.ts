/**
 * Version 3: balance alerts (`AlertStore`, src/core/alerts/store.ts): what each watches and the
 * state of its last check. As in SQLite (../../sqlite/alerts.ts), `read_failing` a boolean; its
 * statements in ../core/alerts.ts.
 */
export const ALERTS_V3: readonly string[] = [
  `CREATE TABLE balance_alerts (
     id text PRIMARY KEY,
     currency text NOT NULL,
     threshold_minor bigint NOT NULL,
     channel text NOT NULL,
     created_by text NOT NULL,
     created_at text NOT NULL,
     level text NOT NULL,
     read_failing boolean NOT NULL,
     posts integer NOT NULL,
     checked_at text
   )`,
];
