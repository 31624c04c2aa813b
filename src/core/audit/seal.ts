import { canonicalJson, type JsonValue } from '../canonical-json.js';
import { optional } from '../optional.js';
import { collectSecrets, redact, sanitizeJson, sanitizeText } from '../redact.js';
import { AuditInputError } from './errors.js';
import { hashOfText } from './hash.js';
import type { AuditRow } from './rows.js';
import type { AuditAnchor, AuditContent, AuditEntry, AuditEntryInput } from './schema.js';
import { auditEntryInputSchema, MAX_ERROR_LENGTH } from './schema.js';

/**
 * An entry validated, redacted and serialized, waiting for its place in the chain: everything but
 * `seq` and the hashes. Its time is when it was recorded, not when its commit came.
 */
export interface Prepared {
  content: Omit<AuditContent, 'seq'>;
  /** Canonical JSON of `content.input` and of `content.evidence` (null without evidence). */
  input: string;
  evidence: string | null;
  /** Canonical JSON of `content.policy` (null on an entry that names no policy version). */
  policy: string | null;
  /** The canonical JSON that the entry's hash covers, but for `seq` between the two parts. */
  hashed: [before: string, after: string];
}

export interface PrepareOptions {
  /** Field names that are secret for this tool only (family B card assignment: `code`). */
  extraKeys?: readonly string[];
  /** Secret values known to this call that may appear outside secret fields. */
  secrets?: readonly string[];
}

const text = (value: string | number | null): string => (value === null ? 'null' : JSON.stringify(value));

/**
 * `canonicalJson(content)` cut around `seq`, written once when the entry is recorded: sealing it
 * in a batch then costs one hash over known strings. The keys in canonical (sorted) order, as
 * `entryHash` writes them (verification re-computes it that way; a test compares the two).
 */
function hashedText(
  content: Prepared['content'],
  input: string,
  evidence: string | null,
  policy: string | null,
): Prepared['hashed'] {
  const c = content;
  return [
    `{"actor":${text(c.actor)},"approvalId":${text(c.approvalId)},"decision":${text(c.decision)},` +
      `"durationMs":${text(c.durationMs)},"error":${text(c.error)},"event":${text(c.event)},` +
      `${evidence === null ? '' : `"evidence":${evidence},`}"frontEnd":${text(c.frontEnd)},"input":${input},` +
      `"outcome":${text(c.outcome)},${policy === null ? '' : `"policy":${policy},`}"requestIds":${canonicalJson(c.requestIds)},"seq":`,
    `,"tool":${text(c.tool)},"ts":${text(c.ts)}}`,
  ];
}

function truncate(message: string): string {
  return message.length <= MAX_ERROR_LENGTH ? message : `${message.slice(0, MAX_ERROR_LENGTH)}…[truncated]`;
}

/**
 * Validates, redacts (again: secret fields, secret values wherever they occur, card numbers,
 * bearer tokens) and serializes one entry. Throws `AuditInputError` naming the fields at fault, or
 * a `TypeError` for a value JSON cannot carry: whatever could make a commit fail because of one
 * entry fails here, before the entry joins a batch.
 */
export function prepareEntry(
  input: AuditEntryInput,
  options: PrepareOptions,
  globalSecrets: readonly string[],
  ts: string,
): Prepared {
  const parsed = auditEntryInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new AuditInputError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(entry)'}: ${issue.message}`),
    );
  }
  const entry = parsed.data;
  const extraKeys = options.extraKeys ?? [];
  const secrets = [...collectSecrets(entry.input, extraKeys), ...globalSecrets, ...(options.secrets ?? [])];
  const evidence = entry.evidence as JsonValue | undefined;
  const content: Prepared['content'] = {
    ts,
    actor: entry.actor,
    frontEnd: entry.frontEnd,
    tool: entry.tool,
    input: sanitizeJson(redact(entry.input, extraKeys), secrets),
    decision: entry.decision,
    event: entry.event,
    approvalId: entry.approvalId,
    requestIds: entry.requestIds,
    outcome: entry.outcome,
    error: entry.error === null ? null : truncate(sanitizeText(entry.error, secrets)),
    durationMs: entry.durationMs,
    // Stored exactly as signed: a scrubbed byte would make a true signature fail to verify. It holds
    // public keys, signatures and the input already redacted above, never a secret.
    ...optional('evidence', evidence),
    ...optional('policy', entry.policy),
  };
  const inputText = canonicalJson(content.input);
  const evidenceText = evidence === undefined ? null : canonicalJson(evidence);
  const policyText = entry.policy === undefined ? null : canonicalJson(entry.policy);
  return {
    content,
    input: inputText,
    evidence: evidenceText,
    policy: policyText,
    hashed: hashedText(content, inputText, evidenceText, policyText),
  };
}

/** Chains a batch after `head`: the rows to insert and the entries they are. */
export function sealAfter(
  head: AuditAnchor,
  batch: readonly Prepared[],
): { rows: AuditRow[]; entries: AuditEntry[] } {
  let prev = head;
  const rows: AuditRow[] = [];
  const entries = batch.map(({ content, input, evidence, policy, hashed }): AuditEntry => {
    const seq = prev.seq + 1;
    const hash = hashOfText(prev.hash, `${hashed[0]}${seq}${hashed[1]}`);
    rows.push({
      seq,
      ts: content.ts,
      actor: content.actor,
      front_end: content.frontEnd,
      tool: content.tool,
      input,
      decision: content.decision,
      event: content.event,
      approval_id: content.approvalId,
      request_ids: JSON.stringify(content.requestIds),
      outcome: content.outcome,
      error: content.error,
      duration_ms: content.durationMs,
      evidence,
      policy,
      prev_hash: prev.hash,
      hash,
    });
    const entry: AuditEntry = { seq, ...content, prevHash: prev.hash, hash };
    prev = { seq, hash };
    return entry;
  });
  return { rows, entries };
}
