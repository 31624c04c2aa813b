import { auditActor } from './actors.js';
import type { AuditLog } from './audit/index.js';
import { ConfirmationDeferred, type WriteToConfirm } from './confirmation.js';
import { messageOf } from './errors.js';
import type { Actor } from './policy/types.js';
import { redact } from './redact.js';
import type { ExecuteResult } from './results.js';
import { secretsOf } from './run-tool.js';
import type { AnyTool } from './tool.js';

/**
 * Asks the person behind a call to confirm a write the policy allows outright. Undefined when they
 * said yes; otherwise the `declined` result, audited (`declined`, nothing sent). A front end that
 * asks between two calls throws `ConfirmationDeferred`, which passes through.
 */
export async function confirmWrite(
  audit: AuditLog,
  call: { tool: AnyTool; input: Record<string, unknown>; actor: Actor },
  confirm: (write: WriteToConfirm) => Promise<boolean>,
): Promise<ExecuteResult | undefined> {
  const { tool, input, actor } = call;
  const redacted = redact(input, tool.secretFields ?? []) as Record<string, unknown>;
  let reason: string | undefined;
  try {
    if (!(await confirm({ tool, input: redacted }))) reason = 'the user declined to confirm it';
  } catch (error) {
    if (error instanceof ConfirmationDeferred) throw error;
    reason = `it could not be confirmed (${messageOf(error)})`;
  }
  if (reason === undefined) return undefined;
  await audit.append(
    {
      actor: auditActor(actor),
      frontEnd: actor.frontEnd,
      tool: tool.name,
      input: redacted,
      decision: 'declined',
      event: 'requested',
      outcome: 'failed',
      error: `not run: ${reason}`,
    },
    { secrets: secretsOf(tool, input) },
  );
  return { status: 'declined', tool: tool.name, reason: `${tool.name} was not run: ${reason}` };
}
