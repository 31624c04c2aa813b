import { auditActor } from '../actors.js';
import type { AuditDecision, AuditEntryInput, AuditEvent, AuditLog, AuditOutcome } from '../audit/index.js';
import { canonicalJson, type JsonValue } from '../canonical-json.js';
import type { Actor } from '../policy/types.js';
import type { Stores } from '../store/index.js';
import type { VoteEvidence } from './step-up.js';

/** Who acts when no person does: expiry, following a settlement. */
export const SYSTEM_ACTOR = { id: 'system:approvals', frontEnd: 'system' } as const;

export interface ApprovalAuditEntry {
  actor: Pick<Actor, 'id'> & { frontEnd: Actor['frontEnd'] | 'system' };
  tool: string;
  /** Already redacted. */
  input: unknown;
  event: Extract<AuditEvent, 'requested' | 'decided' | 'settled'>;
  decision: AuditDecision;
  approvalId: string | null;
  requestId?: string;
  outcome?: AuditOutcome;
  error?: string;
  /** A signed vote's proof. */
  evidence?: VoteEvidence;
}

/** The audit entry of one step of an approval's life. */
export function approvalEntry(entry: ApprovalAuditEntry): AuditEntryInput {
  return {
    actor: auditActor(entry.actor),
    frontEnd: entry.actor.frontEnd,
    tool: entry.tool,
    input: entry.input,
    decision: entry.decision,
    event: entry.event,
    approvalId: entry.approvalId,
    requestIds: entry.requestId === undefined ? [] : [entry.requestId],
    outcome: entry.outcome ?? null,
    error: entry.error ?? null,
    ...(entry.evidence === undefined
      ? {}
      : { evidence: JSON.parse(canonicalJson(entry.evidence)) as JsonValue }),
  };
}

/** Appends it inside the engine's transaction, so both commit or neither. */
export async function auditApproval(audit: AuditLog, tx: Stores, entry: ApprovalAuditEntry): Promise<void> {
  await audit.appendIn(tx, approvalEntry(entry));
}
