/**
 * Version 11: the policy version an approval opened under (docs/policy.md "Versions"), kept with
 * its rule so every front end says "opened under policy version N"; NULL on approvals opened
 * before. As in SQLite (`approvals-4-policy-version`, ../../sqlite/approvals-schema.ts).
 */
export const APPROVAL_POLICY_V11: readonly string[] = [
  'ALTER TABLE approvals ADD COLUMN policy_version integer',
];
