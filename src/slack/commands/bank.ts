import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs, SlashCommand } from '@slack/bolt';
import { policyView } from '../../present/policy-view.js';
import { isToolGroup } from '../../present/tool-groups.js';
import { alertCommand } from '../alerts/commands.js';
import { approvalsMessages } from '../approvals/messages/approvals-list.js';
import type { Asker } from '../asker.js';
import { askedAnchor } from '../audit-anchor.js';
import type { ActorContext } from '../middleware/actor.js';
import { enrolLinkMessage } from '../passkeys/index.js';
import { line } from '../render/message.js';
import { outcomeMessage, usageMessage } from '../render/outcome.js';
import { replyTo } from '../respond.js';
import { type SlackServices, slackTools } from '../services.js';
import { subscribe, unsubscribe } from '../subscriptions/commands.js';
import type { Command } from './command.js';
import { groupHelpMessage, helpMessage, secretInputMessage, shortFormHelp, toolHelpMessage } from './help.js';
import { type GrammarContext, parseCommand } from './parse.js';
import { toolCommand } from './tool-command.js';

async function help(services: SlackServices, asker: Asker, topic: string | undefined): Promise<void> {
  const tools = slackTools(services.registry);
  const view = policyView(services.executor.policy, asker.actor, tools);
  if (topic === undefined) {
    await asker.reply(helpMessage(view, tools));
    return;
  }
  const tool = services.registry.get(topic);
  if (tool?.secretInput === true) {
    await asker.reply(secretInputMessage(tool));
    return;
  }
  if (tool !== undefined) {
    await asker.reply(
      toolHelpMessage(
        tool,
        view.tools.find((t) => t.tool === tool.name),
        services.defaults,
      ),
    );
    return;
  }
  if (isToolGroup(topic)) {
    await asker.reply(groupHelpMessage(view, tools, topic));
    return;
  }
  const form = shortFormHelp(topic);
  await asker.reply(
    form ??
      usageMessage(`no help for '${topic}': \`/bank help\` lists the short forms and the tools you may use`),
  );
}

async function approvals(services: SlackServices, asker: Asker): Promise<void> {
  const result = await services.executor.execute({
    tool: 'list_approvals',
    input: { state: 'pending', limit: 100 },
    actor: asker.actor,
  });
  if (result.status !== 'ok') {
    await asker.reply(
      result.status === 'pending_approval' ? line(result.status) : outcomeMessage(result, true),
    );
    return;
  }
  const list = (result.output.approvals ?? []) as Parameters<typeof approvalsMessages>[0];
  for (const message of approvalsMessages(list, asker.actor, services.executor.policy))
    await asker.reply(message);
}

async function dispatch(
  services: SlackServices,
  asker: Asker,
  command: Command,
  body: SlashCommand,
): Promise<void> {
  switch (command.kind) {
    case 'help':
      return help(services, asker, command.topic);
    case 'usage':
      return asker.reply(usageMessage(command.message));
    case 'approvals':
      return approvals(services, asker);
    case 'subscribe':
      return subscribe(services, asker, command.event, command.channel);
    case 'unsubscribe':
      return unsubscribe(services, asker, command.event);
    case 'audit-anchor':
      return asker.reply(
        await askedAnchor(services.audit, services.outbox, services.config.auditChannel, asker.userId),
      );
    case 'alert-add':
    case 'alert-list':
    case 'alert-remove':
      return alertCommand(services, asker, command);
    case 'passkey':
      return asker.reply(await enrolLinkMessage(services, asker.actor));
    case 'tool': {
      const tool = services.registry.get(command.tool);
      if (tool === undefined) return asker.reply(usageMessage(`unknown tool ${command.tool}`));
      return toolCommand(services, asker, tool, command.input, {
        triggerId: body.trigger_id,
        responseUrl: body.response_url,
      });
    }
  }
}

type CommandArgs = AllMiddlewareArgs<ActorContext> & SlackCommandMiddlewareArgs;

/**
 * `/bank …`: acknowledged at once (Slack's 3 seconds hold whatever the service does), then the
 * text is parsed and the answer sent through the command's response_url. The person is
 * `context.actor`, resolved by the actor middleware.
 */
export function bankCommand(services: SlackServices, grammar: GrammarContext) {
  return async ({ command, ack, context }: CommandArgs): Promise<void> => {
    await ack();
    const asker: Asker = {
      actor: context.actor,
      userId: command.user_id,
      userName: command.user_name,
      channelId: command.channel_id,
      reply: replyTo(command.response_url),
    };
    await dispatch(services, asker, parseCommand(command.text, grammar), command);
  };
}
