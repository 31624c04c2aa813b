import { internalError } from '../errors.js';
import type { Storage } from '../store/index.js';
import type { NewPolicyVersion, PolicyVersion } from './versions.js';

/**
 * The store's version for a policy loaded from a file without governance: the newest version when it
 * has the same hash, else a new version recorded after it (one compare-and-set in a write
 * transaction). Two replicas with different files each record theirs when they load it; every
 * decision names the one it used.
 */
export async function recordFileVersion(storage: Storage, next: NewPolicyVersion): Promise<PolicyVersion> {
  const seen = await storage.read((stores) => stores.policies.latest());
  if (seen?.hash === next.hash) return seen;
  return storage.transaction(async (tx) => {
    const latest = await tx.policies.latest();
    if (latest?.hash === next.hash) return latest;
    const added = await tx.policies.append(next, latest?.version ?? 0);
    // The transaction holds the write lock: nobody can have appended since `latest`.
    if (added === undefined) throw internalError('a policy version was recorded under the write lock');
    return added;
  });
}
