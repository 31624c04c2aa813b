import { z } from 'zod';

/**
 * Step-up (DESIGN decision 16): under a rule with `stepUp: passkey`, a vote counts only with a
 * passkey assertion over what would run (and so does a break-glass under `breakGlass.stepUp`). The WebAuthn challenge is the SHA-256 of the canonical JSON
 * of `SignedVote`: a new quote (new attempt, new bound) or any other change of what would run gives
 * another challenge, so a signature made before it is void.
 */
export const SignedVoteSchema = z.strictObject({
  approvalId: z.string(),
  /** 1, plus one per new quote: a re-quoted approval is a new question. */
  attempt: z.number().int(),
  tool: z.string(),
  /** The input as the audit log holds it (secrets redacted; approvals never hold secrets anyway). */
  input: z.json(),
  /** The execution bound approvers accept (most debited, least delivered), or null without money. */
  bound: z.json(),
  /** The voter, as a person: separation of duties is per person. */
  person: z.string(),
  /**
   * Present only when the person breaks the glass (docs/approvals.md "Break-glass"), with their
   * reason: a vote's signature has no such member and a break-glass's always has, so neither can
   * stand for the other.
   */
  breakGlass: z.strictObject({ reason: z.string() }).optional(),
  /** Fresh per confirmation page, used once. */
  nonce: z.string(),
});
export type SignedVote = z.infer<typeof SignedVoteSchema>;

/** What would be signed now, before the nonce. */
export type SignTarget = Omit<SignedVote, 'nonce'>;

/** A WebAuthn assertion as the browser returns it, its binary fields base64url. */
export const AssertionSchema = z.strictObject({
  authenticatorData: z.base64url(),
  clientDataJSON: z.base64url(),
  signature: z.base64url(),
  userHandle: z.base64url().optional(),
});

/**
 * The proof a signed vote keeps (with the vote, and in its audit entry): enough to re-check it
 * offline against the public key registered to the person in an earlier audit entry.
 */
export const VoteEvidenceSchema = z.strictObject({
  kind: z.literal('passkey'),
  credentialId: z.base64url(),
  /** The relying party and origin the assertion was made for (from `BANKOPS_PUBLIC_URL`). */
  rpId: z.string(),
  origin: z.string(),
  /** The authenticator's signature counter in this assertion. */
  counter: z.number().int().nonnegative(),
  signed: SignedVoteSchema,
  assertion: AssertionSchema,
});
export type VoteEvidence = z.infer<typeof VoteEvidenceSchema>;
