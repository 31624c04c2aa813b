import { canonicalJson } from '../canonical-json.js';
import type { Stores } from '../store/index.js';
import type { ApprovalBound } from './view-schema.js';
import type { SignedVote, SignTarget, VoteEvidence } from './vote-evidence.js';

export {
  AssertionSchema,
  type SignedVote,
  SignedVoteSchema,
  type SignTarget,
  type VoteEvidence,
  VoteEvidenceSchema,
} from './vote-evidence.js';

/** What the confirmation page posts: the nonce it was given, and the browser's answer (unchecked). */
export interface StepUpProof {
  nonce: string;
  response: unknown;
}

export type StepUpCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Where signatures are checked (src/core/passkeys implements it). `verify` does the cryptography
 * outside any transaction; `commit` runs inside the vote's transaction, where the signature counter
 * moves forward (or the vote is refused) together with the vote.
 */
export interface StepUpGate {
  verify(target: SignTarget, proof: StepUpProof): Promise<StepUpCheck<VoteEvidence>>;
  /** Inside the vote's transaction: the passkey's counter moves forward with the vote, or neither. */
  commit(tx: Stores, evidence: VoteEvidence): Promise<StepUpCheck<undefined>>;
}

/** The parts of an approval a vote signs. */
export interface Signable {
  id: string;
  attempt: number;
  tool: string;
  /** The execution bound, or null without money. */
  bound: ApprovalBound | null;
}

/**
 * What a vote by `person` on this approval would sign (the input as the audit log holds it); with
 * `breakGlass`, what breaking the glass with that reason would sign instead.
 */
export function signTargetOf(
  approval: Signable,
  person: string,
  auditInput: unknown,
  breakGlass?: string,
): SignTarget {
  return {
    approvalId: approval.id,
    attempt: approval.attempt,
    tool: approval.tool,
    input: JSON.parse(canonicalJson(auditInput)) as SignTarget['input'],
    bound: approval.bound as SignTarget['bound'],
    person,
    ...(breakGlass === undefined ? {} : { breakGlass: { reason: breakGlass } }),
  };
}

/** Whether a signature made over `signed` still stands for `target` (what would run now). */
export function sameTarget(signed: SignedVote, target: SignTarget): boolean {
  const { nonce: _nonce, ...rest } = signed;
  return canonicalJson(rest) === canonicalJson(target);
}
