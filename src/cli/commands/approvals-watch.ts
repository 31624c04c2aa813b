import { storeWords } from '../../app/database.js';
import type { ApprovalEvent, ApprovalView } from '../../core/approvals/types.js';
import { notFoundIn } from '../../core/not-found.js';
import { eventLine } from '../../present/approval-history.js';
import { statusLine } from '../../present/approval-words.js';
import { withRuntime } from '../context.js';
import { err, out, UsageError } from '../io.js';
import type { OutputMode } from '../output.js';

/**
 * `bankops approvals watch <id>`, as `gh run watch`: follows one approval through its votes, its
 * execution and the settlement of the money it sent, a line per change, and exits with the code of
 * its outcome (WATCH_EXIT, in its help), so a script can wait on it.
 */

/** The exit code of each outcome (the table in `bankops approvals --help`). */
export const WATCH_EXIT = {
  succeeded: 0,
  failed: 1,
  usage: 2,
  rejected: 3,
  unresolved: 4,
  expired: 6,
  cancelled: 7,
} as const;

export const WATCH_HELP = `watch follows one approval, a line per change (votes, execution, re-sends, takeovers, where
the money stands) until it ends, asking the service about sent money as it goes; --interval
<seconds> between looks (1 by default); with --json, one JSON line per change, then the outcome's
{"status", "exitCode", "approval"}. It exits with its outcome:
  0  succeeded (and the money it sent reached its final status: completed, or nothing to follow)
  1  failed (the service refused it when it ran, or the money it sent failed)
  2  usage, or no such approval
  3  rejected
  4  unresolved (its outcome at the service is unknown: reconcile it), or the money's status unknown
  6  expired without enough approvals
  7  cancelled by the requester
`;

/** The outcome an approval has come to, or undefined while it goes on. */
export function watchedOutcome(view: ApprovalView): keyof typeof WATCH_EXIT | undefined {
  switch (view.state) {
    case 'pending':
    case 'approved':
    case 'executing':
      return undefined;
    case 'succeeded':
      switch (view.settlement?.outcome) {
        case 'settling':
          return undefined;
        case 'failed':
          return 'failed';
        case 'unknown':
          return 'unresolved';
        default:
          return 'succeeded';
      }
    default:
      return view.state;
  }
}

/** `--interval`: seconds between looks, from 0.05 to 60. */
function intervalMs(value: string | undefined): number {
  if (value === undefined) return 1000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0.05 || seconds > 60)
    throw new UsageError(`--interval must be a number of seconds from 0.05 to 60, got '${value}'`);
  return Math.round(seconds * 1000);
}

/** One JSON document a line (a change, then the outcome), for a script reading as it goes. */
const jsonLine = (value: unknown): void => out(`${JSON.stringify(value)}\n`);

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function approvalsWatch(id: string, interval: string | undefined, mode: OutputMode): Promise<number> {
  const every = intervalMs(interval);
  return withRuntime(async (runtime) => {
    const { executor } = runtime;
    let seen = 0;
    const say = (event: ApprovalEvent, view: ApprovalView): void => {
      if (!mode.text) {
        jsonLine({ event, line: eventLine(event, view) ?? event.kind });
        return;
      }
      const line = eventLine(event, view);
      if (line !== undefined) out(`${event.at}  ${line}\n`);
    };
    for (let first = true; ; first = false) {
      // Sent money whose next look is due is asked about, so settlement shows as it happens.
      await executor.settleDue();
      const view = await executor.getApproval(id);
      if (view === undefined) {
        err(
          `bankops: ${notFoundIn(`no approval '${id}'`, storeWords(runtime.config))}; bankops approvals list shows them\n`,
        );
        return WATCH_EXIT.usage;
      }
      if (first && mode.text) out(`Watching ${id} (${view.tool}): ${statusLine(view)}\n`);
      for (const event of await executor.approvalHistory(id)) {
        if (event.seq <= seen) continue;
        seen = event.seq;
        say(event, view);
      }
      const outcome = watchedOutcome(view);
      if (outcome !== undefined) {
        if (mode.text) out(`${statusLine(view)}\n`);
        else jsonLine({ status: outcome, exitCode: WATCH_EXIT[outcome], approval: view });
        return WATCH_EXIT[outcome];
      }
      await pause(every);
    }
  });
}
