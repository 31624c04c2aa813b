import { answerFor, slackOrigin } from '../answers/run.js';
import type { Asker } from '../asker.js';
import { line } from '../render/message.js';
import type { SlackServices } from '../services.js';

type Services = Pick<
  SlackServices,
  'executor' | 'registry' | 'config' | 'log' | 'answers' | 'cards' | 'workingAfterMs'
>;

/**
 * Runs an event-relay tool as the person who typed the command; a success gets its own line (where
 * the events now go), anything else the answer of any tool (a refusal, an approval to wait for).
 */
async function relay(
  services: Services,
  asker: Asker,
  toolName: 'create_event_relay' | 'delete_subscription',
  input: Record<string, unknown>,
  done: string,
): Promise<void> {
  const tool = services.registry.get(toolName);
  if (tool === undefined) return asker.reply(line(`:no_entry: ${toolName} is not offered here.`));
  const result = await services.executor.execute({
    tool: tool.name,
    input,
    actor: asker.actor,
    origin: slackOrigin(asker),
  });
  await asker.reply(
    result.status === 'ok' ? line(done) : await answerFor(services, asker, tool, input, result),
  );
}

/** `/bank subscribe <event> [#channel]`: `create_event_relay` to that channel, this one by default. */
export function subscribe(services: Services, asker: Asker, event: string, channel: string | undefined) {
  const target = channel ?? asker.channelId;
  return relay(
    services,
    asker,
    'create_event_relay',
    { event_name: event, channel: target },
    `:white_check_mark: \`${event}\` events from the service now post to <#${target}>.`,
  );
}

/** `/bank unsubscribe <event>`: `delete_subscription`, which forgets the keys (the shipped policy asks an approver first). */
export function unsubscribe(services: Services, asker: Asker, event: string) {
  return relay(
    services,
    asker,
    'delete_subscription',
    { event_name: event },
    `:white_check_mark: The \`${event}\` subscription is deleted; its events no longer post here.`,
  );
}
