import { storeWords } from '../../app/database.js';
import type { Runtime } from '../../app/runtime.js';
import { notFoundIn } from '../../core/not-found.js';
import { openReviewLine, reviewState } from '../../present/break-glass.js';
import { deciderFor } from '../context.js';
import { EXIT, out, printJson } from '../io.js';
import type { OutputMode } from '../output.js';

/**
 * `bankops approvals review <id> --close --reason "…"`: one person's close of a break-glass
 * review; the answer says where the review stands.
 */
export async function closeReview(
  runtime: Runtime,
  id: string,
  as: string | undefined,
  reason: string,
  mode: OutputMode,
): Promise<number> {
  const actor = await deciderFor(runtime, as);
  const result = await runtime.executor.breakGlass.closeReview(id, actor, reason);
  if (result.status === 'ok') {
    const line = `${reviewState(result.review)}.`;
    if (mode.text) out(`${line}\n`);
    else
      printJson({
        status: result.review.closedAt === undefined ? 'open' : 'closed',
        outcome: line,
        review: result.review,
      });
    return EXIT.ok;
  }
  // "Not found" says which database it looked in, as every other not-found does.
  const store = storeWords(runtime.config);
  const line =
    result.status === 'not_found'
      ? `Not found: ${notFoundIn(result.reason, store)}.`
      : `Refused: ${result.reason}.`;
  if (mode.text) out(`${line}\n`);
  else
    printJson({
      status: result.status,
      outcome: line,
      reason: result.reason,
      ...(result.status === 'not_found' ? { store } : {}),
    });
  return result.status === 'not_found' ? EXIT.usage : EXIT.denied;
}

/**
 * `bankops approvals review`: the break-glass reviews still open, oldest first, one line each (as
 * the Slack digest lists them), so a reviewer finds them without Slack.
 */
export async function openReviews(runtime: Runtime, mode: OutputMode): Promise<number> {
  const reviews = await runtime.executor.breakGlass.reviews();
  if (!mode.text) printJson(reviews);
  else if (reviews.length === 0) out('No break-glass review is open.\n');
  else
    out(
      `${reviews.map((review) => openReviewLine(review)).join('\n')}\nClose one: bankops approvals review <id> --close --reason "<what you checked>"\n`,
    );
  return EXIT.ok;
}
