import { storeWords } from '../../app/database.js';
import type { Runtime } from '../../app/runtime.js';
import { notFoundIn } from '../../core/not-found.js';
import { resultClass, resultDocument } from '../../present/output/index.js';
import { actorFor } from '../context.js';
import { EXIT, err, printJson } from '../io.js';
import { type OutputMode, printDocument } from '../output.js';

export const ASK_AGAIN_HELP = `ask-again asks once more for what an approval marked not sent asked for: the same tool and
input, as your request (--as), judged by the policy like any; a fresh approval, and a fresh quote
when it runs. Nothing is re-sent: an unresolved approval is looked up at the service and marked
not sent (reconcile --not-sent) first. Asking twice gives the same new approval; the old one's
history and the audit log name it.`;

/** `bankops approvals ask-again <id>`: answered as `bankops call` answers the request it makes. */
export async function approvalsAskAgain(
  runtime: Runtime,
  approvalId: string,
  as: string | undefined,
  mode: OutputMode,
): Promise<number> {
  if ((await runtime.executor.getApproval(approvalId)) === undefined) {
    err(
      `bankops: ${notFoundIn(`no approval '${approvalId}'`, storeWords(runtime.config))}; bankops approvals list shows them\n`,
    );
    return EXIT.usage;
  }
  const actor = await actorFor(runtime, as);
  const result = await runtime.executor.askAgain(approvalId, actor);
  if (!mode.text) printJson(result);
  else
    printDocument(
      (maxColumns) =>
        resultDocument(runtime.registry, result, {
          asker: actor.id,
          maxColumns,
          fullResult: '--json shows them',
        }),
      mode,
    );
  return EXIT[resultClass(result)];
}
