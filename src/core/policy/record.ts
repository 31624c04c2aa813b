import { internalError } from '../errors.js';
import type { Storage } from '../store/index.js';
import { parsePolicyText } from './parse.js';
import type { Policy } from './schema.js';
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
    // A governed version is never replaced by a file: the caller finds it in force instead.
    if (latest !== undefined && governedVersion(latest) !== undefined) return latest;
    const added = await tx.policies.append(next, latest?.version ?? 0);
    // The transaction holds the write lock: nobody can have appended since `latest`.
    if (added === undefined) throw internalError('a policy version was recorded under the write lock');
    return added;
  });
}

/** The store's version if governance is on in it (its `governance:` section); undefined otherwise. */
export function governedVersion(
  latest: PolicyVersion | undefined,
): { version: PolicyVersion; policy: Policy } | undefined {
  if (latest === undefined) return undefined;
  const policy = parsePolicyText(latest.text, `policy version ${latest.version}`);
  return policy.governance === undefined ? undefined : { version: latest, policy };
}
