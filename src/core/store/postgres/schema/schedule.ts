/** Version 2: claims on scheduled work (`ClaimStore`, src/core/schedule/claims.ts; statements in ../core/claims.ts): one replica per slot. */
export const SCHEDULE_V2: readonly string[] = [
  `CREATE TABLE schedule_claims (
     claim_key text PRIMARY KEY,
     owner text NOT NULL,
     claimed_at text NOT NULL
   )`,
];

/** Version 5: the claims by age, for pruning those older than a week (src/core/schedule/prune.ts). */
export const SCHEDULE_BY_AGE_V5: readonly string[] = [
  'CREATE INDEX schedule_claims_claimed_at ON schedule_claims (claimed_at)',
];
