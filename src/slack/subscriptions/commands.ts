import { randomBytes } from 'node:crypto';
import type { ExecuteResult } from '../../core/results.js';
import { answerFor, slackOrigin } from '../answers/run.js';
import type { Asker } from '../asker.js';
import { line, type SlackMessage } from '../render/message.js';
import { usageMessage } from '../render/outcome.js';
import type { SlackServices } from '../services.js';

export const WEBHOOK_PATH = '/webhooks/service';

const EVENT_NAME = /^[a-z0-9_.-]{1,64}$/i;

/**
 * `/bank subscribe <event> [#channel]`: a fresh key (kept only as its digest), then the service
 * subscription through the executor (created, or updated when one exists) with
 * `webhook_url = BANKOPS_PUBLIC_URL/webhooks/service`. Deliveries of the event then post to the
 * channel. The key is recorded before the service has it, so its first delivery is never refused,
 * and forgotten again if the service does not take it.
 */
export async function subscribe(
  services: SlackServices,
  asker: Asker,
  event: string,
  channel: string | undefined,
): Promise<void> {
  if (services.publicUrl === undefined) {
    await asker.reply(
      usageMessage(
        'BANKOPS_PUBLIC_URL is not set, so the service would not know where to deliver events. The operator sets it to the public address in front of `bankops serve` (a proxy or tunnel), then try again.',
      ),
    );
    return;
  }
  if (!EVENT_NAME.test(event)) {
    await asker.reply(
      usageMessage(`'${event}' is not an event name; \`/bank list_webhook_events\` lists them`),
    );
    return;
  }
  const target = channel ?? asker.channelId;
  const key = randomBytes(32).toString('base64url');
  services.webhookKeys.add(key, { eventName: event, channel: target, createdBy: asker.actor.id });
  const input = {
    event_name: event,
    subscription_type: 'w',
    webhook_url: `${services.publicUrl}${WEBHOOK_PATH}`,
    x_api_key: key,
    program_code: services.defaults.programCode,
    agent_code: services.defaults.agentCode,
    subagent_code: services.defaults.subagentCode,
  };
  const execute = (tool: string): Promise<ExecuteResult> =>
    services.executor.execute({ tool, input, actor: asker.actor, origin: slackOrigin(asker) });
  let result = await execute('create_subscription');
  // One subscription per event and scope: when one exists (the service refuses a second), it is
  // pointed here with the new key instead.
  if (result.status === 'failed' && result.error.kind === 'service') {
    const updated = await execute('update_subscription');
    if (updated.status === 'ok' || updated.status === 'pending_approval') result = updated;
  }
  if (result.status === 'ok') {
    services.webhookKeys.keepOnly(event, key);
    await asker.reply(
      line(`:white_check_mark: \`${event}\` events from the service now post to <#${target}>.`),
    );
    return;
  }
  if (result.status !== 'pending_approval') services.webhookKeys.remove(key);
  const tool = services.registry.get(result.tool);
  await asker.reply(
    tool === undefined ? line(result.status) : answerFor(services, asker, tool, input, result),
  );
}

/** `/bank unsubscribe <event>`: deletes the service subscription (the shipped policy asks an approver first). */
export async function unsubscribe(services: SlackServices, asker: Asker, event: string): Promise<void> {
  const tool = services.registry.get('delete_subscription');
  if (tool === undefined) throw new Error('delete_subscription is not in the registry');
  const input = {
    event_name: event,
    program_code: services.defaults.programCode,
    agent_code: services.defaults.agentCode,
    subagent_code: services.defaults.subagentCode,
  };
  const result = await services.executor.execute({
    tool: tool.name,
    input,
    actor: asker.actor,
    origin: slackOrigin(asker),
  });
  let message: SlackMessage = answerFor(services, asker, tool, input, result);
  if (result.status === 'ok') {
    services.webhookKeys.forgetEvent(event);
    message = line(
      `:white_check_mark: The \`${event}\` subscription is deleted; its events no longer post here.`,
    );
  }
  await asker.reply(message);
}
