import { createHash, timingSafeEqual } from 'node:crypto';
import type { Policy } from './schema.js';

/** The digest to put in `mcpKeys[].sha256` for a bearer key (same as `printf %s "$KEY" | sha256sum`). */
export function sha256Hex(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * The name of the MCP key whose digest matches the presented bearer key, or undefined.
 * Every entry is compared in constant time and the loop never exits early, so the answer time says
 * nothing about how close a guess was or which entry matched.
 */
export function resolveMcpKey(policy: Pick<Policy, 'mcpKeys'>, presentedKey: string): string | undefined {
  if (presentedKey === '') return undefined;
  const presented = createHash('sha256').update(presentedKey, 'utf8').digest();
  let found: string | undefined;
  for (const entry of policy.mcpKeys) {
    const stored = Buffer.from(entry.sha256, 'hex');
    if (stored.length === presented.length && timingSafeEqual(stored, presented) && found === undefined) {
      found = entry.name;
    }
  }
  return found;
}

/** Whether the policy still lists the key `name` with this digest (a removed or rotated key does not). */
export function mcpKeyListed(policy: Pick<Policy, 'mcpKeys'>, name: string, digest: string): boolean {
  return policy.mcpKeys.some((entry) => entry.name === name && entry.sha256 === digest);
}
