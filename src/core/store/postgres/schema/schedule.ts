/** Claims on scheduled work (src/core/schedule/claims.ts): one replica per slot. */
export const SCHEDULE_V2: readonly string[] = [
  `CREATE TABLE schedule_claims (
     claim_key text PRIMARY KEY,
     owner text NOT NULL,
     claimed_at text NOT NULL
   )`,
];
