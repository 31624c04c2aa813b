/**
 * Version 8: payouts that succeeded, per payee, for the payee's history shown to approvers
 * (statements in ../payees.ts; SQLite's table in ../../sqlite/payees.ts, `payees-2`).
 */
export const CONTROLS_V8: readonly string[] = [
  `CREATE TABLE payee_payouts (
     request_id text PRIMARY KEY,
     beneficiary_id text NOT NULL,
     amount double precision NOT NULL,
     currency text NOT NULL,
     at text NOT NULL
   )`,
  'CREATE INDEX payee_payouts_beneficiary ON payee_payouts (beneficiary_id, at)',
];
