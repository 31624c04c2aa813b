import { auditActor } from './actors.js';
import type { AuditLog } from './audit/index.js';
import { invalidResult } from './input-check.js';
import type { Actor } from './policy/types.js';
import { redact } from './redact.js';
import type { ExecuteResult } from './results.js';
import { secretsOf } from './run-tool.js';
import type { AnyTool } from './tool.js';

/** The `requested` entry of a request refused before anything ran. */
export function refusedEntry(
  tool: string,
  actor: Actor,
  input: unknown,
  decision: 'deny' | 'invalid',
  reason: string,
  definition?: AnyTool,
) {
  return {
    entry: {
      actor: auditActor(actor),
      frontEnd: actor.frontEnd,
      tool,
      input,
      decision,
      event: 'requested' as const,
      outcome: 'failed' as const,
      error: reason,
    },
    secrets: definition === undefined ? [] : secretsOf(definition, input),
  };
}

/** Appends it, on disk when it resolves. */
export async function appendRefusal(
  audit: AuditLog,
  ...refusal: Parameters<typeof refusedEntry>
): Promise<void> {
  const { entry, secrets } = refusedEntry(...refusal);
  await audit.append(entry, { secrets });
}

/**
 * Refuses a request as invalid before anything ran (an idempotency key used before for another
 * input): its `requested` entry on disk, its secrets redacted, then the answer that says why.
 */
export async function refuseInvalid(
  audit: AuditLog,
  tool: AnyTool,
  actor: Actor,
  input: Record<string, unknown>,
  message: string,
): Promise<ExecuteResult> {
  await appendRefusal(
    audit,
    tool.name,
    actor,
    redact(input, tool.secretFields ?? []),
    'invalid',
    message,
    tool,
  );
  return invalidResult(tool.name, message);
}

/** Refuses a request the policy denies: its `requested` entry on disk, its secrets redacted, then the answer. */
export async function refuseDenied(
  audit: AuditLog,
  tool: AnyTool,
  actor: Actor,
  input: Record<string, unknown>,
  reason: string,
): Promise<ExecuteResult> {
  await appendRefusal(audit, tool.name, actor, redact(input, tool.secretFields ?? []), 'deny', reason, tool);
  return { status: 'denied', tool: tool.name, reason };
}
