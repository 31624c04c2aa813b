import type { AuditDecision, AuditEvent, AuditLog, AuditOutcome } from '../audit/index.js';
import { canonicalJson, type JsonValue } from '../canonical-json.js';
import type { Actor } from '../policy/types.js';
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

/** One entry of an approval's life; appended inside the engine's transaction, so both commit or neither. */
export function auditApproval(audit: AuditLog, entry: ApprovalAuditEntry): void {
  audit.append({
    actor: entry.actor.id,
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
  });
}
