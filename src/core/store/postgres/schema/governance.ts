import { AUDIT_APPEND_V7 } from './audit-append.js';

/**
 * Version 7: the policy in the store (`PolicyVersionStore`, src/core/policy/versions.ts), one row per
 * version, never changed once written; and the version that decided, on every audit entry of a
 * decision (`policy`, canonical JSON, NULL on entries written before, whose hash does not cover it).
 * As in SQLite (../../sqlite/policy-schema.ts); statements in ../core/policies.ts.
 */
export const GOVERNANCE_V7: readonly string[] = [
  `CREATE TABLE policy_versions (
     version integer PRIMARY KEY,
     text text NOT NULL,
     hash text NOT NULL,
     source text NOT NULL,
     proposed_by text NOT NULL,
     approved_by text NOT NULL,
     created_at text NOT NULL
   )`,
  'ALTER TABLE audit_log ADD COLUMN policy text',
  ...AUDIT_APPEND_V7,
];
