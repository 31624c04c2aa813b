import { parseArgs } from 'node:util';
import { storeWords } from '../../app/database.js';
import type { Runtime } from '../../app/runtime.js';
import { reasonProblem } from '../../core/approvals/break-glass-reason.js';
import type { BreakGlassReview } from '../../core/approvals/break-glass-store.js';
import {
  APPROVAL_STATES,
  type ApprovalActionResult,
  type ApprovalEvent,
  type ApprovalState,
  type ApprovalView,
} from '../../core/approvals/types.js';
import { CodedError, isDatabaseUnreachable } from '../../core/errors.js';
import { notFoundIn } from '../../core/not-found.js';
import { optional } from '../../core/optional.js';
import { type IssuedLink, PasskeyError } from '../../core/passkeys/index.js';
import type { Actor } from '../../core/policy/types.js';
import { type ApprovalAction, approvalOutcome } from '../../present/approval-outcome.js';
import { retryQuoteWords } from '../../present/approval-words.js';
import { breakGlassLines, breakGlassRanLine } from '../../present/break-glass.js';
import { approvalDocument, approvalsDocument } from '../../present/output/index.js';
import { didYouMean } from '../../present/suggest.js';
import { deciderFor, withRuntime } from '../context.js';
import { EXIT, err, out, printJson, UsageError } from '../io.js';
import { type OutputMode, outputMode, printDocument } from '../output.js';
import { wrapLine } from '../render/text.js';
import { ASK_AGAIN_HELP, approvalsAskAgain } from './approvals-ask-again.js';
import { BREAK_GLASS_HELP, breakGlassLink } from './approvals-break-glass.js';
import { approvalsExecuting } from './approvals-executing.js';
import { closeReview, openReviews } from './approvals-review.js';
import { approvalsWatch, WATCH_HELP } from './approvals-watch.js';
import { checkSubcommand } from './table.js';

export const APPROVALS_HELP = `Usage:
  bankops approvals list [--state <state>] [--limit <n>] [--json]
  bankops approvals show <id> [--json]
  bankops approvals watch <id> [--interval <seconds>] [--json]
  bankops approvals executing [--json]
  bankops approvals approve <id> [--as <name>] [--json]
  bankops approvals reject <id> --reason "<why>" [--as <name>] [--json]
  bankops approvals cancel <id> [--reason "<why>"] [--as <name>] [--json]
  bankops approvals reconcile <id> --sent|--not-sent --reason "<what the service says>"
                              [--request-id <id>-<n>] [--as <name>]
  bankops approvals reconcile <id> --retry [--reason "<why>"] [--request-id <id>-<n>] [--as <name>]
  bankops approvals ask-again <id> [--as <name>] [--json]
  bankops approvals break-glass <id> --reason "<why>" [--as <name>] [--json]
  bankops approvals review <id> --close --reason "<what you checked>" [--as <name>] [--json]
  bankops approvals review [--json]

Approvals of money movement, permanent card blocks and subscription deletions. The requester
never approves their own request; the vote that completes the quorum executes the operation.
States: ${APPROVAL_STATES.join(', ')}.

${WATCH_HELP}
${ASK_AGAIN_HELP}
executing lists what is being executed now: the process holding each (host:pid) and until when
its lease holds. A holder renews its lease while it runs; one that stops (a replica or CLI process
that died) is taken over by the next process to look once the lease has run out, which says so in
its log, in /metrics (bankops_executions_taken_over_total) and in approvals show ("Taken over by").

An approval whose outcome stayed unknown after its re-sends is unresolved: look its request id up
at the service, then reconcile it: --sent (it happened: succeeded), --not-sent (it did not: failed,
a new request may be made), or --retry (send it once more with the same request id). Someone with
the approver role who is not the requester reconciles; the audit log keeps who and the reason.
--retry re-sends the stored quote, which the service refuses once it has expired (about 75 s after
it was given): approvals show says until when it holds. After that a retry can only fail ("quote
expired"); if the service has no such request, --not-sent it and ask-again, for a fresh quote and
a fresh approval. --retry says first until when the stored quote holds, or that it has expired.
--request-id names the request id you looked up: if the approval has since moved on to a newer
attempt (a fresh quote, approved again), nothing is settled and you are told to look again.

approve, reject, cancel and reconcile say in one line what happened: the vote recorded; executed,
with the id the service gave; failed, with the service's message; sent back to the approvers
because a fresh quote was outside the approved bound; or the outcome not known yet, and what
happens next. With
--json (or when stdout is not a terminal) they print {"status", "outcome", "approval"}, where
status is voted, executed, failed, sent_back, unknown, unresolved, reconciled, rejected, cancelled,
expired, refused or not_found, and approval the full view.

${BREAK_GLASS_HELP}

Approvals under a rule with stepUp: passkey count a vote only once confirmed with a passkey: approve
prints a one-time link (5 minutes) to the approval page at BANKOPS_PUBLIC_URL, where the vote is
signed; nothing is recorded before. With --json: {"status": "step_up", "url", "expiresAt"}.

Exit status (watch has its own, above): 0 done (or vote recorded), 1 the operation failed when
executed, 2 usage or unknown id, 3 refused or expired, 4 not finished: the outcome is not known yet
(or unresolved), or a fresh quote sent it back for approval, 5 confirm the vote (or the
break-glass) with a passkey at the link printed.
`;

/** A step-up approval: the vote is signed on the approval page; this prints its one-time link. */
async function stepUpLink(runtime: Runtime, id: string, decider: Actor, mode: OutputMode): Promise<number> {
  let link: IssuedLink;
  try {
    link = await runtime.passkeys.approvalLink(id, decider);
  } catch (error) {
    if (!(error instanceof PasskeyError)) throw error;
    if (mode.text) out(`Not recorded: ${error.message}.\n`);
    else printJson({ status: 'refused', outcome: error.message });
    return EXIT.denied;
  }
  if (mode.text) {
    out(
      `${id} needs your vote confirmed with a passkey. Open this link (it works once, until ${link.expiresAt}):\n${link.url}\nNothing is recorded before you confirm there.\n`,
    );
  } else printJson({ status: 'step_up', url: link.url, expiresAt: link.expiresAt });
  return EXIT.stepUp;
}

/** `--sent`, `--not-sent`, `--retry`: what a person found at the service, as the engine takes it. */
const SETTLE = { sent: 'succeeded', 'not-sent': 'failed', retry: 'retry' } as const;

/** The one line on stdout (the full view stays a --json away), or the JSON with a matching status. */
function answer(
  action: ApprovalAction,
  result: ApprovalActionResult,
  mode: OutputMode,
  runtime: Pick<Runtime, 'config' | 'againstSandbox'>,
  breakGlass?: BreakGlassReview,
): number {
  const onSandbox = runtime.againstSandbox;
  const said = approvalOutcome(action, result);
  // A break-glass that went through says it was one, and that its review is open.
  const found = breakGlass === undefined ? said : { ...said, line: breakGlassRanLine(said.line, breakGlass) };
  // "Not found" says which database it looked in: a terminal without a replica's variables uses a local file.
  const store = storeWords(runtime.config);
  const outcome =
    found.status === 'not_found'
      ? { ...found, line: `${notFoundIn(found.line.replace(/\.$/, ''), store)}.` }
      : found;
  if (mode.text) {
    // On the embedded sandbox one terminal plays every person: say how to be the second one.
    const ownRequest =
      onSandbox &&
      action === 'approve' &&
      result.status === 'refused' &&
      result.approval?.state === 'pending';
    const hint =
      outcome.status === 'not_found'
        ? ' bankops approvals list shows them.'
        : ownRequest
          ? ` Another person approves it: bankops approvals approve ${result.approval?.id} --as <name>.`
          : '';
    // One sentence, wrapped at the terminal's width like every other answer.
    out(`${wrapLine(`${outcome.line}${hint}`, mode.width, '  ').join('\n')}\n`);
  } else {
    printJson({
      status: outcome.status,
      outcome: outcome.line,
      ...(result.status === 'ok' ? {} : { reason: result.reason }),
      ...(result.status === 'not_found' ? { store } : {}),
      ...(result.status === 'not_found' || result.approval === undefined
        ? {}
        : { approval: result.approval }),
      ...optional('breakGlass', breakGlass),
    });
  }
  return EXIT[outcome.class];
}

export async function approvalsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      state: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      as: { type: 'string' },
      reason: { type: 'string' },
      sent: { type: 'boolean' },
      'not-sent': { type: 'boolean' },
      retry: { type: 'boolean' },
      'request-id': { type: 'string' },
      interval: { type: 'string' },
      close: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h' || values.help) {
    out(APPROVALS_HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  checkSubcommand('approvals', sub, APPROVALS_HELP);
  const state = values.state;
  if (state !== undefined && !(APPROVAL_STATES as readonly string[]).includes(state)) {
    const hint = didYouMean(state, APPROVAL_STATES);
    throw new UsageError(
      `--state must be one of ${APPROVAL_STATES.join(', ')}${hint === '' ? '' : `; ${hint}`}`,
    );
  }
  const id = positionals[0];
  if (sub === 'executing') return approvalsExecuting(outputMode(values.json));
  if (sub === 'watch' && id !== undefined)
    return approvalsWatch(id, values.interval, outputMode(values.json));
  // `review` without an id: the break-glass reviews still open.
  if (sub === 'review' && id === undefined && values.close !== true && values.reason === undefined)
    return withRuntime((runtime) => openReviews(runtime, outputMode(values.json)));
  if (sub !== 'list' && id === undefined)
    throw new UsageError(`approvals ${sub} needs an approval id`, APPROVALS_HELP);
  if (
    (sub === 'reject' || sub === 'break-glass' || sub === 'review') &&
    (values.reason === undefined || values.reason.trim() === '')
  )
    throw new UsageError(`approvals ${sub} needs --reason "<why>"`, APPROVALS_HELP);
  const badReason =
    sub === 'break-glass' || sub === 'review' ? reasonProblem(values.reason ?? '') : undefined;
  if (badReason !== undefined) throw new UsageError(`approvals ${sub}: ${badReason}`, APPROVALS_HELP);
  if (sub === 'review' && values.close !== true)
    throw new UsageError('approvals review <id> takes --close --reason "<what you checked>"', APPROVALS_HELP);
  const chosen = (['sent', 'not-sent', 'retry'] as const).filter((flag) => values[flag] === true);
  if (sub === 'reconcile' && chosen.length !== 1)
    throw new UsageError(
      'approvals reconcile <id> takes one of --sent, --not-sent or --retry',
      APPROVALS_HELP,
    );
  const how = chosen[0] === undefined ? undefined : SETTLE[chosen[0]];
  const mode = outputMode(values.json);
  return withRuntime(async (runtime, track) => {
    const { executor } = runtime;
    if (sub === 'list' || sub === 'show') {
      // Sent money whose next look is due is asked about first, so the answer says where it stands.
      const progress = track('checking sent money at the service');
      await executor.settleDue();
      progress.stop();
    }
    const approvalId = id ?? '';
    switch (sub) {
      case 'list': {
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 500)
          throw new UsageError(`--limit must be a whole number from 1 to 500, got '${values.limit}'`);
        const approvals = await executor.listApprovals({
          limit,
          ...optional('state', state as ApprovalState | undefined),
        });
        const more = limit < 500 ? '--limit 500, or --state to narrow' : '--state to narrow';
        if (mode.text)
          printDocument(
            (maxColumns) =>
              approvalsDocument(approvals, { limit, more, maxColumns, fullResult: '--json shows them' }),
            mode,
          );
        else printJson(approvals);
        return EXIT.ok;
      }
      case 'show': {
        const approval = await executor.getApproval(approvalId);
        if (approval === undefined) {
          err(
            `bankops: ${notFoundIn(`no approval '${approvalId}'`, storeWords(runtime.config))}; bankops approvals list shows them\n`,
          );
          return EXIT.usage;
        }
        const history = await executor.approvalHistory(approvalId);
        const [review] = await executor.breakGlass.reviews(approvalId);
        if (mode.text) {
          printDocument(() => approvalDocument(approval, { registry: runtime.registry, history }), mode);
          if (review !== undefined) out(`${breakGlassLines(review).join('\n')}\n`);
        } else
          printJson({
            ...approval,
            takenOver: takenOverOf(history),
            ...optional('breakGlass', review),
          });
        return EXIT.ok;
      }
      case 'approve': {
        const decider = await deciderFor(runtime, values.as);
        const view = await executor.getApproval(approvalId);
        if (view?.state === 'pending' && view.stepUp !== undefined)
          return stepUpLink(runtime, approvalId, decider, mode);
        const progress = track(`approving ${approvalId}`);
        const result = await mayHaveRun(approvalId, () => executor.approve(approvalId, decider));
        progress.stop();
        return answer('approve', result, mode, runtime);
      }
      case 'reject':
        return answer(
          'reject',
          await executor.reject(approvalId, await deciderFor(runtime, values.as), values.reason ?? ''),
          mode,
          runtime,
        );
      case 'ask-again':
        return approvalsAskAgain(runtime, approvalId, values.as, mode);
      case 'break-glass': {
        const actor = await deciderFor(runtime, values.as);
        const reason = values.reason ?? '';
        if (executor.policy.breakGlass?.stepUp !== undefined) {
          // Everything is checked (and a refusal audited) before a link is handed out.
          const checked = await executor.breakGlass.breakGlassCheck(approvalId, actor, reason);
          if (checked.status !== 'ready') return answer('approve', checked, mode, runtime);
          return breakGlassLink(runtime, checked, actor, reason, mode);
        }
        const progress = track(`breaking the glass on ${approvalId}`);
        const result = await mayHaveRun(approvalId, () =>
          executor.breakGlass.breakGlass(approvalId, actor, reason),
        );
        progress.stop();
        const [review] = result.status === 'ok' ? await executor.breakGlass.reviews(approvalId) : [];
        return answer('approve', result, mode, runtime, review);
      }
      case 'review':
        return closeReview(runtime, approvalId, values.as, values.reason ?? '', mode);
      case 'reconcile': {
        const outcome = how ?? 'retry';
        const decider = await deciderFor(runtime, values.as);
        if (outcome === 'retry') quoteNotice(await executor.getApproval(approvalId));
        const progress = track(`reconciling ${approvalId}`);
        const looked = optional('requestId', values['request-id']);
        const result = await mayHaveRun(approvalId, () =>
          executor.reconcile(
            approvalId,
            decider,
            outcome === 'retry'
              ? { outcome, ...optional('reason', values.reason), ...looked }
              : { outcome, reason: values.reason ?? '', ...looked },
          ),
        );
        progress.stop();
        // A retry sends it again: its answer is that of an execution.
        return answer(outcome === 'retry' ? 'approve' : 'reconcile', result, mode, runtime);
      }
      default:
        return answer(
          'cancel',
          await executor.cancel(approvalId, await deciderFor(runtime, values.as), values.reason),
          mode,
          runtime,
        );
    }
  });
}

/**
 * A vote or a retry that lost the database on its way: the vote may have counted and the operation
 * may have reached the service (a payout sent before its outcome could be written). Said with the
 * database's line, and how to learn what happened; another process finishes the approval.
 */
async function mayHaveRun<T>(approvalId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof CodedError) || !isDatabaseUnreachable(error)) throw error;
    throw new CodedError({
      code: error.code,
      message: `${error.message}; the vote may have counted and the operation may have run: \`bankops approvals show ${approvalId}\` once the database is back says what happened`,
      operation: error.operation,
      original: error,
    });
  }
}

/** The takeovers in an approval's history, for `show --json`. */
const takenOverOf = (history: readonly ApprovalEvent[]): { at: string; detail: string }[] =>
  history.filter((e) => e.kind === 'taken_over').map((e) => ({ at: e.at, detail: e.detail ?? '' }));

/**
 * Before a retry re-sends the stored quote: until when it holds, so the person knows when a
 * "quote expired" is coming and what to do instead (mark it not sent, ask again).
 */
function quoteNotice(view: ApprovalView | undefined): void {
  if (view?.state !== 'unresolved' || view.quoteExpiresAt === undefined) return;
  err(`bankops: ${retryQuoteWords(view.quoteExpiresAt)}\n`);
}
