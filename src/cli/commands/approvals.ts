import { parseArgs } from 'node:util';
import {
  APPROVAL_STATES,
  type ApprovalActionResult,
  type ApprovalState,
  type ApprovalView,
} from '../../core/approvals/types.js';
import { deciderFor, withRuntime } from '../context.js';
import { EXIT, printJson, table, UsageError } from '../io.js';

export const APPROVALS_HELP = `Usage:
  bankops approvals list [--state <state>] [--json]
  bankops approvals show <id>
  bankops approvals approve <id> [--as <name>]
  bankops approvals reject <id> --reason "<why>" [--as <name>]
  bankops approvals cancel <id> [--reason "<why>"] [--as <name>]

Approvals of money movement, permanent card blocks and subscription deletions. The requester
never approves their own request; the vote that completes the quorum executes the operation.
States: ${APPROVAL_STATES.join(', ')}.

Exit status: 0 done (or vote recorded), 1 the operation failed when executed, 2 usage or unknown id,
3 refused, 4 not finished: the outcome is not known yet, or a fresh quote sent it back for approval.
`;

function summaryRows(approvals: readonly ApprovalView[]): string[][] {
  return approvals.map((a) => [
    a.id,
    a.state,
    a.tool,
    a.requester,
    `${a.approvals.length}/${a.requiredApprovers}`,
    a.preview?.summary ?? a.reason,
  ]);
}

function actionExit(result: ApprovalActionResult): number {
  if (result.status === 'not_found') return EXIT.usage;
  if (result.status === 'refused') return EXIT.denied;
  switch (result.approval.state) {
    case 'failed':
      return EXIT.failed;
    // The vote that completed the quorum did not finish the operation: its outcome is unknown
    // (`executing`, recovered later) or a fresh quote sent it back for approval (`pending` again).
    // A script must not read that as done, unless it only voted toward a quorum.
    case 'executing':
      return EXIT.unfinished;
    case 'pending':
      return result.approval.attempt > 1 && result.approval.approvals.length === 0
        ? EXIT.unfinished
        : EXIT.ok;
    default:
      return EXIT.ok;
  }
}

export async function approvalsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      state: { type: 'string' },
      json: { type: 'boolean' },
      as: { type: 'string' },
      reason: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    process.stdout.write(APPROVALS_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  const id = positionals[0];
  const needId = (): string => {
    if (id === undefined) throw new UsageError(`approvals ${sub} needs an approval id`, APPROVALS_HELP);
    return id;
  };
  return withRuntime(async (runtime) => {
    const { executor } = runtime;
    switch (sub) {
      case 'list': {
        const state = values.state;
        if (state !== undefined && !(APPROVAL_STATES as readonly string[]).includes(state)) {
          throw new UsageError(`--state must be one of ${APPROVAL_STATES.join(', ')}`);
        }
        const approvals = executor.listApprovals(
          state === undefined ? {} : { state: state as ApprovalState },
        );
        if (values.json) printJson(approvals);
        else if (approvals.length === 0) process.stdout.write('no approvals\n');
        else {
          process.stdout.write(
            `${table(['ID', 'STATE', 'TOOL', 'REQUESTER', 'VOTES', 'WHAT'], summaryRows(approvals), 80)}\n`,
          );
        }
        return EXIT.ok;
      }
      case 'show': {
        const approval = executor.getApproval(needId());
        if (approval === undefined) {
          process.stderr.write(`bankops: no approval '${id}'; bankops approvals list shows them\n`);
          return EXIT.usage;
        }
        printJson(approval);
        return EXIT.ok;
      }
      case 'approve': {
        const result = await executor.approve(needId(), deciderFor(runtime, values.as));
        printJson(result);
        return actionExit(result);
      }
      case 'reject': {
        if (values.reason === undefined || values.reason.trim() === '') {
          throw new UsageError('approvals reject needs --reason "<why>"', APPROVALS_HELP);
        }
        const result = executor.reject(needId(), deciderFor(runtime, values.as), values.reason);
        printJson(result);
        return actionExit(result);
      }
      case 'cancel': {
        const result = executor.cancel(needId(), deciderFor(runtime, values.as), values.reason);
        printJson(result);
        return actionExit(result);
      }
      default:
        throw new UsageError(`unknown approvals command '${sub}'`, APPROVALS_HELP);
    }
  });
}
