import { z } from 'zod';
import type { JsonValue } from '../canonical-json.js';
import { optional } from '../optional.js';
import { AuditLogCorruptError } from './errors.js';
import type { AuditContent, AuditEntry } from './schema.js';
import { decisionSchema, eventSchema, frontEndSchema, outcomeSchema, policyStampSchema } from './schema.js';

/** A row as SQLite returns it; enum columns stay plain text so a tampered row can still be hashed. */
export const auditRowSchema = z.object({
  seq: z.number().int(),
  ts: z.string(),
  actor: z.string(),
  front_end: z.string(),
  tool: z.string(),
  input: z.string(),
  decision: z.string(),
  event: z.string(),
  approval_id: z.string().nullable(),
  request_ids: z.string(),
  outcome: z.string().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().nullable(),
  evidence: z.string().nullable().default(null),
  policy: z.string().nullable().default(null),
  prev_hash: z.string(),
  hash: z.string(),
});

export type AuditRow = z.infer<typeof auditRowSchema>;

/** The hashed content of a row exactly as stored, whatever the stored values are. */
export type RawContent = Record<keyof AuditContent, unknown>;

/** Throws `SyntaxError` when a JSON column no longer holds JSON. */
export function rawContentOf(row: AuditRow): RawContent {
  return {
    seq: row.seq,
    ts: row.ts,
    actor: row.actor,
    frontEnd: row.front_end,
    tool: row.tool,
    input: JSON.parse(row.input),
    decision: row.decision,
    event: row.event,
    approvalId: row.approval_id,
    requestIds: JSON.parse(row.request_ids),
    outcome: row.outcome,
    error: row.error,
    durationMs: row.duration_ms,
    evidence: row.evidence === null ? undefined : JSON.parse(row.evidence),
    policy: row.policy === null ? undefined : JSON.parse(row.policy),
  };
}

const typedContentSchema = z.object({
  frontEnd: frontEndSchema,
  decision: decisionSchema,
  event: eventSchema,
  outcome: outcomeSchema.nullable(),
  requestIds: z.array(z.string()),
  policy: policyStampSchema.optional(),
});

export function entryOf(value: unknown): AuditEntry {
  const parsed = auditRowSchema.safeParse(value);
  if (!parsed.success) {
    const seq = (value as { seq?: unknown } | undefined)?.seq;
    throw new AuditLogCorruptError(typeof seq === 'number' ? seq : 0, 'columns of the wrong type');
  }
  const row = parsed.data;
  let raw: RawContent;
  try {
    raw = rawContentOf(row);
  } catch {
    throw new AuditLogCorruptError(row.seq, 'a JSON column does not hold JSON');
  }
  const typed = typedContentSchema.safeParse(raw);
  if (!typed.success) {
    const fields = typed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new AuditLogCorruptError(row.seq, `unexpected value in ${fields}`);
  }
  const content: AuditContent = {
    seq: row.seq,
    ts: row.ts,
    actor: row.actor,
    frontEnd: typed.data.frontEnd,
    tool: row.tool,
    input: raw.input as JsonValue,
    decision: typed.data.decision,
    event: typed.data.event,
    approvalId: row.approval_id,
    requestIds: typed.data.requestIds,
    outcome: typed.data.outcome,
    error: row.error,
    durationMs: row.duration_ms,
    ...optional('evidence', raw.evidence as JsonValue | undefined),
    ...optional('policy', typed.data.policy),
  };
  return { ...content, prevHash: row.prev_hash, hash: row.hash };
}
