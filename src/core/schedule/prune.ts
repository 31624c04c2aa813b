import type { Logger } from '../log.js';
import type { Storage } from '../store/index.js';
import type { PeriodicJob } from './scheduler.js';

export const PRUNE_CLAIMS_JOB = 'claims-prune';

/** How long a claim is kept: far longer than any slot is claimed late (a balance interval, a day). */
const CLAIMS_KEPT_MS = 7 * 24 * 3_600_000;

/** Once an hour: one indexed delete, nothing when there is nothing that old. */
const PRUNE_CLAIMS_EVERY_MS = 3_600_000;

/**
 * Forgets the claims on scheduled work older than a week (`schedule_claims` would otherwise grow by
 * one row per balance-check interval, 288 a day at 5 minutes). Every replica runs it; a second
 * delete finds nothing.
 */
export function pruneClaimsJob(storage: Storage, log: Logger): PeriodicJob {
  return {
    name: PRUNE_CLAIMS_JOB,
    everyMs: PRUNE_CLAIMS_EVERY_MS,
    async run(now) {
      const before = new Date(now.getTime() - CLAIMS_KEPT_MS);
      const pruned = await storage.transaction((tx) => tx.claims.prune(before), { durable: false });
      if (pruned > 0) log.debug('scheduled work: old claims pruned', { count: pruned });
    },
  };
}
