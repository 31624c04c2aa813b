import type { AuditLog } from '../audit/log.js';
import { internalError } from '../errors.js';
import type { Storage } from '../store/index.js';
import { parsePolicyText } from './parse.js';
import type { Actor } from './types.js';
import { type PolicyVersion, policyHash } from './versions.js';

export interface Recovery {
  /** The policy text to put in force, and the file it came from. */
  text: string;
  path: string;
  /** Who did it: the database owner at the command line. */
  actor: Actor;
  reason: string;
  now: Date;
}

/**
 * The way back when the people who govern the policy are gone (docs/policy.md, "Recovery"): an
 * owner of the database, with every process stopped, puts a version in force without votes. The
 * text is checked like any policy (a governed one still needs enough governing people); the
 * version (source `recovery:<file>`, approved by nobody) and its audit entry commit together.
 */
export async function recoverPolicy(
  storage: Storage,
  audit: AuditLog,
  recovery: Recovery,
): Promise<PolicyVersion> {
  const policy = parsePolicyText(recovery.text, recovery.path);
  const hash = policyHash(policy);
  return storage.transaction(async (tx) => {
    const latest = await tx.policies.latest();
    const version = await tx.policies.append(
      {
        text: recovery.text,
        hash,
        source: `recovery:${recovery.path}`,
        proposedBy: recovery.actor.id,
        approvedBy: [],
        createdAt: recovery.now.toISOString(),
      },
      latest?.version ?? 0,
    );
    if (version === undefined) throw internalError('a policy version was recorded under the write lock');
    await audit.appendIn(tx, {
      actor: recovery.actor.id,
      frontEnd: 'cli',
      tool: 'policy_recover',
      input: { reason: recovery.reason, file: recovery.path, replaced: latest?.version ?? null },
      decision: 'allow',
      event: 'requested',
      outcome: 'ok',
      policy: { version: version.version, hash },
    });
    return version;
  });
}
