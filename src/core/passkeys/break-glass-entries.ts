import { approvalEntry } from '../approvals/audit.js';
import type { BreakGlassReady } from '../approvals/break-glass.js';
import type { AuditEntryInput } from '../audit/index.js';
import type { Actor } from '../policy/types.js';

/**
 * The audit entries of a break-glass under step-up before it runs (docs/auditors.md): the link
 * handed out (`break_glass_asked`, pending), or why none could be (`refused`).
 */
function entryOf(
  ready: BreakGlassReady,
  actor: Actor,
  decision: 'break_glass_asked' | 'refused',
  error: string,
): AuditEntryInput {
  const view = ready.approval;
  return approvalEntry({
    actor,
    tool: view.tool,
    input: view.input,
    event: 'decided',
    decision,
    approvalId: view.id,
    requestId: view.requestId,
    outcome: decision === 'refused' ? 'failed' : 'pending',
    error,
  });
}

export const breakGlassAsked = (ready: BreakGlassReady, actor: Actor, person: string, until: string) =>
  entryOf(
    ready,
    actor,
    'break_glass_asked',
    `break-glass asked by ${person}: ${ready.target.breakGlass?.reason ?? ''}; runs only once confirmed with their passkey (link until ${until})`,
  );

export const breakGlassRefused = (ready: BreakGlassReady, actor: Actor, why: string) =>
  entryOf(ready, actor, 'refused', why);
