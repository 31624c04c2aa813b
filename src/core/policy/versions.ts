import { z } from 'zod';
import { canonicalJson } from '../canonical-json.js';
import { textDigest } from './prebuilt.js';
import type { Policy } from './schema.js';

/**
 * One version of the policy as the store keeps it (docs/policy.md, "Versions"): never changed once
 * written. `hash` is the SHA-256 of the canonical JSON of the parsed policy, so two texts that say
 * the same (comments, key order, YAML or JSON) have one hash, and an audit entry's `policy.hash`
 * names exactly what decided.
 */
export const policyVersionSchema = z.object({
  version: z.number().int().positive(),
  /** The text as written (YAML or JSON), comments included. */
  text: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** Where it came from: `file:<path>` (loaded from a file, ungoverned) or `proposal:<approval id>`. */
  source: z.string().min(1),
  /** The actor id of who proposed it (`system:policy-file` for a file loaded without governance). */
  proposedBy: z.string().min(1),
  /** The people who approved it (empty for a file loaded without governance). */
  approvedBy: z.array(z.string()),
  createdAt: z.string(),
});

export type PolicyVersion = z.infer<typeof policyVersionSchema>;
export type NewPolicyVersion = Omit<PolicyVersion, 'version'>;

/** SHA-256 (hex) of the canonical JSON of a parsed policy. */
export function policyHash(policy: Policy): string {
  return textDigest(canonicalJson(policy));
}

/** The versions of the policy in one database; every method runs inside the caller's transaction. */
export interface PolicyVersionStore {
  /** The version in force: the newest. */
  latest(): Promise<PolicyVersion | undefined>;
  get(version: number): Promise<PolicyVersion | undefined>;
  /** Every version, oldest first. */
  list(): Promise<PolicyVersion[]>;
  /**
   * Records `next` as version `expected + 1` only if the newest is still `expected` (0: none yet);
   * `undefined` when another process recorded one in between (compare-and-set).
   */
  append(next: NewPolicyVersion, expected: number): Promise<PolicyVersion | undefined>;
}

/** The table's columns, in order: both backends and `bankops db copy` use this list. */
export const POLICY_VERSION_COLUMNS = [
  'version',
  'text',
  'hash',
  'source',
  'proposed_by',
  'approved_by',
  'created_at',
] as const;

export interface PolicyVersionRow {
  version: number | string;
  text: string;
  hash: string;
  source: string;
  proposed_by: string;
  approved_by: string;
  created_at: string;
}

export function policyVersionOf(row: PolicyVersionRow): PolicyVersion {
  return policyVersionSchema.parse({
    version: Number(row.version),
    text: row.text,
    hash: row.hash,
    source: row.source,
    proposedBy: row.proposed_by,
    approvedBy: JSON.parse(row.approved_by),
    createdAt: row.created_at,
  });
}

/** The row's values in `POLICY_VERSION_COLUMNS` order. */
export function policyVersionValues(version: number, next: NewPolicyVersion): (string | number)[] {
  return [
    version,
    next.text,
    next.hash,
    next.source,
    next.proposedBy,
    JSON.stringify(next.approvedBy),
    next.createdAt,
  ];
}
