import { auditActor } from './actors.js';
import type { AuditLog } from './audit/index.js';
import type { Actor } from './policy/types.js';
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
