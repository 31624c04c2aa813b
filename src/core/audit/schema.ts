import { z } from 'zod';
import type { JsonValue } from '../canonical-json.js';

export const frontEndSchema = z.enum(['slack', 'mcp', 'cli', 'system']);

/** What the policy said when the call arrived (`requested`) or what an approver did (`decided`). */
export const decisionSchema = z.enum([
  'allow',
  'deny',
  'approval_required',
  'approved',
  'rejected',
  'cancelled',
  'expired',
  'invalid',
  'refused',
  'declined',
  'reconciled',
  'enrolled',
  'revoked',
  'break_glass',
  'break_glass_asked',
  'review_closed',
]);

/**
 * - `requested`: a call arrived and the policy decided (`allow`, `deny`, `approval_required`,
 *   `invalid`); for `deny` and `invalid` this is also the last entry of the call. `declined`: the
 *   policy allowed a write, and the person asked to confirm it said no; nothing ran.
 * - `decided`: someone or something acted on an approval (`approved`, `rejected`, `cancelled`,
 *   `expired`, `refused`, `reconciled`, `break_glass`, `break_glass_asked`, `review_closed`); one
 *   entry per action.
 * - `executing`: the tool is about to call the service (written before the call, so a crash
 *   leaves a trace of the attempt).
 * - `executed` / `failed`: the outcome of running the tool.
 * - `settled`: what became of money an approved run sent (a payout COMPLETED or FAILED at the
 *   service), followed after the run; outcome `ok` or `failed`.
 * - `credential`: a person's passkey was `enrolled` (its public key in `input`, for re-checking
 *   signed votes offline), `revoked`, or an attempt to enrol one was `refused`.
 */
export const eventSchema = z.enum([
  'requested',
  'decided',
  'executing',
  'executed',
  'failed',
  'settled',
  'credential',
]);

export const outcomeSchema = z.enum(['ok', 'failed', 'pending']);

/**
 * Which version of the policy decided (docs/policy.md, "Versions"): its number in the store and the
 * SHA-256 of its canonical parsed form, so an auditor can replay the decision against that policy.
 */
export const policyStampSchema = z.strictObject({
  version: z.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

export type PolicyStamp = z.infer<typeof policyStampSchema>;

export type FrontEnd = z.infer<typeof frontEndSchema>;
export type AuditDecision = z.infer<typeof decisionSchema>;
export type AuditEvent = z.infer<typeof eventSchema>;
export type AuditOutcome = z.infer<typeof outcomeSchema>;

const POLICY_DECISIONS: readonly AuditDecision[] = [
  'allow',
  'deny',
  'approval_required',
  'invalid',
  'declined',
];
/**
 * `refused`: an approve, reject or cancel that was not allowed (self-approval, missing role, wrong
 * state). `reconciled`: a person settled an approval whose outcome stayed unknown. `break_glass`:
 * a person ran it without its missing votes (docs/approvals.md "Break-glass"); `break_glass_asked`:
 * under `breakGlass.stepUp: passkey`, a person was given the link to confirm that with their passkey
 * (outcome `pending`: nothing ran yet); `review_closed`: one person's close of that use's review.
 */
const APPROVER_DECISIONS: readonly AuditDecision[] = [
  'approved',
  'rejected',
  'cancelled',
  'expired',
  'refused',
  'reconciled',
  'break_glass',
  'break_glass_asked',
  'review_closed',
];
const RUN_DECISIONS: readonly AuditDecision[] = ['allow', 'approved'];
const CREDENTIAL_DECISIONS: readonly AuditDecision[] = ['enrolled', 'revoked', 'refused'];

/** Errors are capped so one runaway message cannot bloat the log. */
export const MAX_ERROR_LENGTH = 2000;

/** What a caller hands to `AuditLog.append`; time, sequence and hashes are added by the log. */
export const auditEntryInputSchema = z
  .strictObject({
    actor: z.string().min(1).max(256),
    frontEnd: frontEndSchema,
    tool: z.string().min(1).max(128),
    /**
     * The tool input. The log redacts it (the usual secret field names and the call's `extraKeys`)
     * and scrubs those fields' values wherever else they appear, before anything is stored.
     */
    input: z.unknown(),
    decision: decisionSchema,
    event: eventSchema,
    approvalId: z.string().min(1).max(128).nullable().default(null),
    requestIds: z.array(z.string().min(1).max(256)).max(100).default([]),
    outcome: outcomeSchema.nullable().default(null),
    error: z.string().nullable().default(null),
    durationMs: z.number().nonnegative().nullable().default(null),
    /**
     * What proves a signed vote (`decided/approved` under a step-up rule) or a signed break-glass
     * (`decided/break_glass` under `breakGlass.stepUp`): the passkey assertion
     * and the content it signed, stored exactly, for `bankops audit verify --signatures`. Checked
     * to be JSON below rather than with `z.json()`: a recursive schema makes zod track cycles on
     * every parse of every entry, a read's included (several times the cost of the rest).
     */
    evidence: z.unknown().optional(),
    /** The policy version that decided: set on the entries of a decision (`requested`, `decided`). */
    policy: policyStampSchema.optional(),
  })
  .superRefine((entry, ctx) => {
    const problem = (path: string, message: string): void => {
      ctx.addIssue({ code: 'custom', path: [path], message });
    };
    const allowed =
      entry.event === 'requested'
        ? POLICY_DECISIONS
        : entry.event === 'decided'
          ? APPROVER_DECISIONS
          : entry.event === 'credential'
            ? CREDENTIAL_DECISIONS
            : RUN_DECISIONS;
    if (!allowed.includes(entry.decision)) {
      problem('decision', `a '${entry.event}' entry takes one of ${allowed.join(', ')}`);
    }
    if ((entry.event === 'decided' || entry.event === 'settled') && entry.approvalId === null) {
      problem('approvalId', `a '${entry.event}' entry names its approval`);
    }
    if (entry.event === 'executing' && entry.outcome !== 'pending') {
      problem('outcome', "an 'executing' entry has outcome 'pending'");
    }
    if (entry.event === 'executed' && entry.outcome !== 'ok') {
      problem('outcome', "an 'executed' entry has outcome 'ok'");
    }
    if (
      entry.evidence !== undefined &&
      !(entry.event === 'decided' && (entry.decision === 'approved' || entry.decision === 'break_glass'))
    ) {
      problem(
        'evidence',
        "only a 'decided/approved' or 'decided/break_glass' entry (signed with a passkey) carries evidence",
      );
    }
    if (entry.evidence !== undefined && !z.json().safeParse(entry.evidence).success) {
      problem('evidence', 'must be JSON');
    }
    if (entry.event === 'failed') {
      if (entry.outcome !== 'failed') problem('outcome', "a 'failed' entry has outcome 'failed'");
      if (entry.error === null || entry.error === '') problem('error', "a 'failed' entry says what failed");
    }
  });

export type AuditEntryInput = z.input<typeof auditEntryInputSchema>;

/** The part of an entry that its hash covers. */
export interface AuditContent {
  seq: number;
  ts: string;
  actor: string;
  frontEnd: FrontEnd;
  tool: string;
  input: JsonValue;
  decision: AuditDecision;
  event: AuditEvent;
  approvalId: string | null;
  requestIds: string[];
  outcome: AuditOutcome | null;
  error: string | null;
  durationMs: number | null;
  /** A signed vote's proof; absent from every other entry (and then not part of the hash). */
  evidence?: JsonValue | undefined;
  /** The policy version that decided; absent from entries written before versions (not hashed then). */
  policy?: PolicyStamp | undefined;
}

/** A stored entry: its content, the previous entry's hash and its own. */
export interface AuditEntry extends AuditContent {
  prevHash: string;
  hash: string;
}

export interface AuditFilter {
  /** Entries at or after this instant (ISO 8601 string or Date). */
  since?: string | Date;
  /** Entries strictly before this instant. */
  until?: string | Date;
  /** Entries with a sequence number greater than this (for paging through a large log). */
  afterSeq?: number;
  tool?: string;
  actor?: string;
  approvalId?: string;
  /** Default 100 for `list`; no default for `exportJsonl`. */
  limit?: number;
  /** `asc` (default) gives the oldest matching entries first; `desc` the newest first. */
  order?: 'asc' | 'desc';
}

/** A head recorded outside the database (`bankops audit verify` prints one). */
export interface AuditAnchor {
  seq: number;
  hash: string;
}

export type AuditVerifyResult =
  | { ok: true; entries: number; head: string; headSeq: number }
  | { ok: false; entries: number; firstBrokenSeq: number; reason: string };
