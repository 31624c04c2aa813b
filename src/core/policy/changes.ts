import { CodedError, ErrorCode, internalError } from '../errors.js';
import type { Storage } from '../store/index.js';
import { diffPolicies, type PolicyDiffChange } from './diff.js';
import { PolicyError } from './errors.js';
import type { Policy } from './schema.js';
import { type PolicyVersion, policyHash } from './versions.js';

/** What a proposal would change: against which version, to which hash, and each change. */
export interface PolicyChangeFacts {
  kind: 'policy_change';
  from: { version: number; hash: string };
  hash: string;
  changes: PolicyDiffChange[];
}

/** An approved proposal to put in force. */
export interface ApprovedChange {
  approvalId: string;
  text: string;
  /** The version it was proposed against: it lands only while that one is in force. */
  against: number;
  /** Who proposed it (the approval's requester, as a person). */
  proposedBy: string;
}

/**
 * A governed policy's changes (docs/policy.md "Governance"): what the `propose_policy` tool reads
 * and writes. Proposing is checking and diffing; the approval engine collects the votes; applying
 * is one compare-and-set in the store.
 */
export interface PolicyChanges {
  /**
   * The proposal checked like any policy file (one line per problem, a `PolicyError`), and what it
   * changes from the version in force.
   */
  preview(text: string, source: string): Promise<PolicyChangeFacts>;
  /**
   * Records the proposal as the next version, proposed by its requester and approved by the people
   * whose votes completed the approval, in one transaction, only if the version it was proposed
   * against is still the newest. Applying the same approval again (a re-run after a crash) answers
   * the version it recorded.
   */
  apply(change: ApprovedChange): Promise<PolicyVersion>;
}

/** Why a proposal cannot land: another change was put in force since it was proposed. */
export function anotherChangeLanded(change: ApprovedChange, latest: PolicyVersion | undefined): CodedError {
  const now = latest === undefined ? 'no version' : `version ${latest.version} (${latest.source})`;
  return new CodedError({
    code: ErrorCode.NotSent,
    message: `another policy change landed first: this proposal was made against version ${change.against}, and ${now} is in force now; nothing changed. Propose it again against the version in force (bankops policy diff ${latest?.version ?? change.against} <file> shows what it would change)`,
  });
}

/** Why an approved proposal cannot land: fewer people voted for it than governance asks. */
function tooFewVotes(change: ApprovedChange, needed: number, had: number): CodedError {
  return new CodedError({
    code: ErrorCode.NotSent,
    message: `a policy change needs ${needed} approvals (governance.approvers); ${change.approvalId} has ${had}: nothing changed`,
  });
}

/**
 * The changes of the policy kept in `storage`; `check` is the process's own check of a policy text
 * (its step-up needs an https public URL, as a file does).
 */
export function storedPolicyChanges(
  storage: Storage,
  check: (text: string, source: string) => Policy,
  now: () => Date,
): PolicyChanges {
  // The version in force, checked once per version (its hash names its parsed form), not at every
  // preview nor inside the transaction that applies a change.
  let known: { hash: string; policy: Policy } | undefined;
  const inForce = (version: PolicyVersion): Policy => {
    if (known?.hash !== version.hash)
      known = { hash: version.hash, policy: check(version.text, `policy version ${version.version}`) };
    return known.policy;
  };
  return {
    async preview(text, source) {
      const proposed = check(text, source);
      const latest = await storage.read((stores) => stores.policies.latest());
      if (latest === undefined) throw new PolicyError(source, ['no policy version is in force yet']);
      const before = inForce(latest);
      return {
        kind: 'policy_change',
        from: { version: latest.version, hash: latest.hash },
        hash: policyHash(proposed),
        changes: diffPolicies(before, proposed),
      };
    },

    async apply(change) {
      const proposed = check(change.text, `the proposal of ${change.approvalId}`);
      const hash = policyHash(proposed);
      return storage.transaction(async (tx) => {
        const latest = await tx.policies.latest();
        const source = `proposal:${change.approvalId}`;
        if (latest?.source === source) return latest;
        if (latest?.version !== change.against) throw anotherChangeLanded(change, latest);
        const approval = await tx.approvals.byId(change.approvalId);
        if (approval === undefined) throw internalError(`no approval ${change.approvalId} to apply`);
        const votes = await tx.approvals.votes(approval.id, approval.attempt);
        const approvedBy = [...new Set(votes.map((vote) => vote.person))];
        // However the approval came to run, a change lands only with the votes governance asks for.
        const needed = latest === undefined ? 0 : (inForce(latest).governance?.approvers ?? 0);
        if (approvedBy.length < needed) throw tooFewVotes(change, needed, approvedBy.length);
        const added = await tx.policies.append(
          {
            text: change.text,
            hash,
            source,
            proposedBy: change.proposedBy,
            approvedBy,
            createdAt: now().toISOString(),
          },
          change.against,
        );
        // The transaction holds the write lock: nobody can have appended since `latest`.
        if (added === undefined) throw internalError('a policy version was recorded under the write lock');
        return added;
      });
    },
  };
}
