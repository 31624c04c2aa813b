import { messageOf } from '../../core/errors.js';
import type { ExecuteResult } from '../../core/results.js';
import { createBalanceAlert } from '../../tools/alerts/create-balance-alert.js';
import { deleteBalanceAlert } from '../../tools/alerts/delete-balance-alert.js';
import { listBalanceAlerts } from '../../tools/alerts/list-balance-alerts.js';
import { type AnswerServices, answerFor, slackOrigin } from '../answers/run.js';
import type { Asker } from '../asker.js';
import type { Command } from '../commands/command.js';
import { line, type SlackMessage } from '../render/message.js';
import { refusalWords, usageMessage } from '../render/outcome.js';
import { addedMessage, alertListMessage, removedMessage } from './messages.js';

type AlertCommand = Extract<Command, { kind: `alert-${string}` }>;

/** Each form as the call of its tool: `/bank alert balance …` adds to this channel unless another is linked. */
function callOf(command: AlertCommand, asker: Asker) {
  switch (command.kind) {
    case 'alert-add': {
      const { currency, amount, channel } = command;
      return { tool: createBalanceAlert, input: { currency, amount, channel: channel ?? asker.channelId } };
    }
    case 'alert-list':
      return { tool: listBalanceAlerts, input: {} };
    case 'alert-remove':
      return { tool: deleteBalanceAlert, input: { id: command.id } };
  }
}

/** A done call in the words of its form. */
function doneMessage(command: AlertCommand, output: Record<string, unknown>): SlackMessage {
  switch (command.kind) {
    case 'alert-add':
      return addedMessage(createBalanceAlert.output.parse(output));
    case 'alert-list':
      return alertListMessage(listBalanceAlerts.output.parse(output));
    case 'alert-remove':
      return removedMessage(deleteBalanceAlert.output.parse(output).alert);
  }
}

/**
 * `/bank alert …`: a short form of the alert tools, run by the executor like every tool (the
 * policy, the audit log), answered in the words these forms have always had. What they never
 * said (an approval a policy asks for, a failure to list) is answered as any tool's call is.
 */
export async function alertCommand(
  services: AnswerServices,
  asker: Asker,
  command: AlertCommand,
): Promise<void> {
  const { tool, input } = callOf(command, asker);
  let result: ExecuteResult;
  try {
    result = await services.executor.execute({
      tool: tool.name,
      input,
      actor: asker.actor,
      origin: slackOrigin(asker),
    });
  } catch (error) {
    if (command.kind !== 'alert-add') throw error;
    await asker.reply(line(`:x: The alert was not added: ${messageOf(error)}`));
    return;
  }
  switch (result.status) {
    case 'ok':
      return asker.reply(doneMessage(command, result.output));
    case 'denied':
    case 'declined':
      return asker.reply(line(`:no_entry: Not allowed: ${refusalWords(result.reason)}.`));
    case 'invalid':
      return asker.reply(usageMessage(result.errors[0]?.message ?? result.message));
    case 'failed':
      if (command.kind === 'alert-add')
        return asker.reply(line(`:x: The alert was not added: ${result.error.message}`));
  }
  await asker.reply(await answerFor(services, asker, tool, input, result));
}
