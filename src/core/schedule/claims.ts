/**
 * Claims on scheduled work: each slot of a job (one interval of the balance check) is done by the
 * first replica to claim its key and by no other, whatever the number of replicas sharing the
 * database. A claim is not released while it matters: the slot is done, or was tried and said so in
 * the log. Claims older than a week are pruned (`pruneClaimsJob`); no slot is claimed that late.
 */
export interface ClaimStore {
  /** True for exactly one caller per key, across every process on the database. */
  claim(key: string, owner: string, at: Date): Promise<boolean>;
  /** Whether a key was claimed (tests and `drain`). */
  claimed(key: string): Promise<boolean>;
  /** Forgets the claims made before `before` (the `claimed_at` index); how many. */
  prune(before: Date): Promise<number>;
}

/** A claim key's longest length: keys are made by code (`digest:C123:2026-11-26`), never typed. */
export const CLAIM_KEY_MAX = 200;
