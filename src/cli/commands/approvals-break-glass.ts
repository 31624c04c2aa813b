import type { Runtime } from '../../app/runtime.js';
import type { BreakGlassReady } from '../../core/approvals/break-glass.js';
import { type IssuedLink, PasskeyError } from '../../core/passkeys/index.js';
import type { Actor } from '../../core/policy/types.js';
import { EXIT, out, printJson } from '../io.js';
import type { OutputMode } from '../output.js';

export const BREAK_GLASS_HELP = `break-glass runs a pending money movement (a payout, conversion or wallet transfer; any other
approval waits for its approvers) without its missing votes, the day approvers are unreachable:
only when the policy has a breakGlass section, by its role, never the requester, below its cap,
with a reason (one line, at most 500 characters, no card number or token); cooling-off and limits
still apply. It is posted to every approvals channel, and its review stays open (in approvals show
and the Slack digest) until review --close by the policy's reviewers (two admins by default),
never the person who broke the glass nor the requester; review without an id lists those still
open. When the section says stepUp: passkey,
everything is checked first, then break-glass prints a one-time link (5 minutes) to a page at
BANKOPS_PUBLIC_URL that shows what will run, marked BREAK-GLASS with your reason and the cap; it
runs only once you confirm there with your passkey, and everything is checked again then. With
--json: {"status": "step_up", "url", "expiresAt"}.`;

/**
 * Break-glass under `breakGlass.stepUp: passkey`, once the engine found nothing against it: the
 * one-time link to the page where the person confirms it with their passkey. Nothing runs before.
 */
export async function breakGlassLink(
  runtime: Runtime,
  ready: BreakGlassReady,
  actor: Actor,
  reason: string,
  mode: OutputMode,
): Promise<number> {
  const id = ready.approval.id;
  let link: IssuedLink;
  try {
    link = await runtime.passkeys.breakGlassLink(id, actor, reason, ready);
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    if (mode.text) out(`Not run: ${error.message}.\n`);
    else printJson({ status: 'refused', outcome: error.message, reason: error.message });
    return EXIT.denied;
  }
  if (mode.text) {
    out(
      `Break-glass on ${id} needs your passkey. Open this link (it works once, until ${link.expiresAt}):\n${link.url}\nNothing runs before you confirm there.\n`,
    );
  } else printJson({ status: 'step_up', url: link.url, expiresAt: link.expiresAt });
  return EXIT.stepUp;
}
