import { z } from 'zod';
import { type SignedVote, VoteEvidenceSchema } from '../approvals/step-up.js';
import type { AuditEntry } from '../audit/index.js';
import { canonicalJson } from '../canonical-json.js';
import { checkAssertion } from './assertion.js';

/** What an enrolment entry says of a passkey: the key every later signature of it is checked with. */
const EnrolledSchema = z.object({
  person: z.string(),
  name: z.string(),
  credentialId: z.string(),
  publicKey: z.string(),
  rpId: z.string(),
  origin: z.string(),
});

interface KnownKey {
  person: string;
  name: string;
  publicKey: string;
  rpId: string;
  origin: string;
  enrolledSeq: number;
  revokedSeq?: number;
}

export interface SignatureFailure {
  seq: number;
  approvalId: string | null;
  actor: string;
  reason: string;
}

export interface SignatureReport {
  /** Signed votes found and checked. */
  checked: number;
  failures: SignatureFailure[];
}

/** Why this signed vote does not stand, or undefined when it does. */
async function problemOf(
  entry: AuditEntry,
  keys: ReadonlyMap<string, KnownKey>,
): Promise<string | undefined> {
  const parsed = VoteEvidenceSchema.safeParse(entry.evidence);
  if (!parsed.success) return 'its evidence is not a passkey assertion with the content it signed';
  const evidence = parsed.data;
  const key = keys.get(evidence.credentialId);
  if (key === undefined) return `passkey ${evidence.credentialId} was not enrolled in an earlier entry`;
  if (key.revokedSeq !== undefined && key.revokedSeq < entry.seq)
    return `passkey "${key.name}" of ${key.person} was revoked at entry ${key.revokedSeq}, before this vote`;
  const signed = evidence.signed;
  if (signed.person !== key.person)
    return `signed as ${signed.person}, but passkey "${key.name}" belongs to ${key.person}`;
  if (signed.approvalId !== entry.approvalId || signed.tool !== entry.tool)
    return `the signature is for ${signed.tool} on ${signed.approvalId}, not this entry's ${entry.tool} on ${entry.approvalId}`;
  if (canonicalJson(signed.input) !== canonicalJson(entry.input))
    return "what was signed is not this entry's input";
  const act = actProblem(entry, signed, evidence.credentialId);
  if (act !== undefined) return act;
  if (evidence.rpId !== key.rpId || evidence.origin !== key.origin)
    return `signed for ${evidence.origin}, but the passkey was enrolled on ${key.origin}`;
  const checked = await checkAssertion({
    credentialId: evidence.credentialId,
    publicKey: key.publicKey,
    signed,
    assertion: evidence.assertion,
    origin: key.origin,
    rpId: key.rpId,
  });
  if (!checked.ok) return checked.reason;
  if (checked.counter !== evidence.counter)
    return 'the counter recorded is not the one the authenticator signed';
  return undefined;
}

/**
 * A vote's signature never stands for a break-glass, nor the other way round: a break-glass entry
 * holds a signature over its own reason, a vote one without any.
 */
function actProblem(entry: AuditEntry, signed: SignedVote, credentialId: string): string | undefined {
  const breakGlass = signed.breakGlass;
  if (entry.decision === 'approved')
    return breakGlass === undefined ? undefined : 'a break-glass signature on a vote';
  if (breakGlass === undefined) return "a vote's signature on a break-glass";
  // Exactly the entry's words: the reason is refused up front unless the log keeps it as given.
  return entry.error ===
    `break-glass by ${signed.person}: ${breakGlass.reason} (confirmed with passkey ${credentialId})`
    ? undefined
    : "what was signed is not this entry's break-glass reason";
}

/**
 * Re-checks every signed vote and break-glass of the audit log, offline, from the log alone: each
 * `decided/approved` or `decided/break_glass` entry with evidence must carry a valid assertion, by a passkey enrolled to the signing person in an
 * earlier entry (and not revoked before it), over the SHA-256 of the canonical JSON of what it signed,
 * which must be this entry's approval, tool and input. Entries must be given in seq order.
 */
export async function verifySignatures(entries: Iterable<AuditEntry>): Promise<SignatureReport> {
  const keys = new Map<string, KnownKey>();
  const failures: SignatureFailure[] = [];
  let checked = 0;
  for (const entry of entries) {
    if (entry.event === 'credential') {
      const info = EnrolledSchema.partial({ publicKey: true, rpId: true, origin: true }).safeParse(
        entry.input,
      );
      if (!info.success) continue;
      if (entry.decision === 'enrolled') {
        const full = EnrolledSchema.safeParse(entry.input);
        if (full.success) keys.set(full.data.credentialId, { ...full.data, enrolledSeq: entry.seq });
      } else if (entry.decision === 'revoked') {
        const key = keys.get(info.data.credentialId);
        if (key !== undefined && key.revokedSeq === undefined) key.revokedSeq = entry.seq;
      }
      continue;
    }
    if (entry.evidence === undefined) continue;
    checked += 1;
    const reason =
      entry.event === 'decided' && (entry.decision === 'approved' || entry.decision === 'break_glass')
        ? await problemOf(entry, keys)
        : 'evidence on an entry that is not a vote or a break-glass';
    if (reason !== undefined)
      failures.push({ seq: entry.seq, approvalId: entry.approvalId, actor: entry.actor, reason });
  }
  return { checked, failures };
}
