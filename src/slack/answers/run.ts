import type { RequestOrigin } from '../../core/approvals/types.js';
import { ErrorCode, isDatabaseUnreachable } from '../../core/errors.js';
import type { ExecuteResult } from '../../core/results.js';
import type { AnyTool } from '../../core/tool.js';
import { requestedMessage } from '../approvals/messages/requested.js';
import type { Asker } from '../asker.js';
import { line, type SlackMessage } from '../render/message.js';
import { databaseDownMessage, outcomeMessage } from '../render/outcome.js';
import type { Reply } from '../respond.js';
import type { SlackServices } from '../services.js';
import { outputAnswer } from './output.js';

/** What answering uses: the executor, the stores of answers and cards, the log and the timings. */
export type AnswerServices = Pick<
  SlackServices,
  'executor' | 'config' | 'log' | 'answers' | 'workingAfterMs'
>;

/**
 * Where a request from Slack came from, kept with an approval it opens: the requester is answered
 * by direct message (a slash command has no thread), and the message says where they asked.
 */
export function slackOrigin(asker: Asker): RequestOrigin {
  const inChannel = /^[CG][A-Z0-9]+$/.test(asker.channelId) ? { slackChannel: asker.channelId } : {};
  return {
    displayName: asker.userName === undefined || asker.userName === '' ? asker.userId : asker.userName,
    replyTo: { slackUser: asker.userId, ...inChannel },
  };
}

/**
 * A "working…" note once the call has taken longer than `afterMs`; `stop` says whether it was shown,
 * so the answer replaces it instead of appearing under it.
 */
function workingNote(reply: Reply, tool: string, afterMs: number): { stop(): Promise<boolean> } {
  let shown: Promise<boolean> | undefined;
  const timer = setTimeout(() => {
    shown = reply(line(`:hourglass_flowing_sand: Working on \`${tool}\`…`)).then(
      () => true,
      () => false,
    );
  }, afterMs);
  return {
    stop: async () => {
      clearTimeout(timer);
      return shown === undefined ? false : shown;
    },
  };
}

/** The answer to a result: the output for `ok`, the approval for `pending_approval`, else one line. */
export async function answerFor(
  services: AnswerServices,
  asker: Asker,
  tool: AnyTool,
  input: Record<string, unknown>,
  result: ExecuteResult,
): Promise<SlackMessage> {
  switch (result.status) {
    case 'ok':
      return outputAnswer(services, asker, tool, input, result.output);
    case 'pending_approval':
      return requestedMessage(result.approval, asker.channelId, services.config);
    default:
      return outcomeMessage(result, tool.hints.readOnly);
  }
}

/**
 * `{tool, input, actor}` → the executor → the answer, ephemeral to the person who asked. Nothing
 * here decides anything: validation, policy, approvals and the audit log are the executor's.
 */
export async function runAndAnswer(
  services: AnswerServices,
  asker: Asker,
  tool: AnyTool,
  input: Record<string, unknown>,
): Promise<void> {
  const note = workingNote(asker.reply, tool.name, services.workingAfterMs);
  let result: ExecuteResult;
  try {
    result = await services.executor.execute({
      tool: tool.name,
      input,
      actor: asker.actor,
      origin: slackOrigin(asker),
    });
  } catch (error) {
    services.log.error('slack: running a tool failed', { tool: tool.name, error });
    const message = 'bankops could not run it; the operators have it in the log';
    result = {
      status: 'failed',
      tool: tool.name,
      error: { kind: isDatabaseUnreachable(error) ? ErrorCode.Unavailable : ErrorCode.Internal, message },
    };
  }
  const replace = await note.stop();
  let answer: SlackMessage;
  try {
    answer = await answerFor(services, asker, tool, input, result);
  } catch (error) {
    // The call has run (its outcome is in the audit log); only showing it failed. Say so rather
    // than leave the person with a "working…" note for ever.
    services.log.error('slack: rendering an answer failed', {
      tool: tool.name,
      status: result.status,
      error,
    });
    answer = isDatabaseUnreachable(error)
      ? databaseDownMessage({ name: tool.name, ran: result.status })
      : line(
          `:warning: \`${tool.name}\` ended ${result.status}, but bankops could not show its answer here; \`bankops audit tail\` has the call.`,
        );
  }
  try {
    await asker.reply(answer, { replace });
  } catch (error) {
    services.log.error('slack: the answer could not be sent', { tool: tool.name, error });
  }
}
