import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { NotificationResultSchema } from '../../core/client/schemas/notifications.js';
import { CodedError, ErrorCode } from '../../core/errors.js';
import type { ToolContext } from '../../core/tool.js';
import { defineTool } from '../../core/tool.js';
import type { ServiceWebhooks } from '../../core/webhooks.js';
import { writeOptions } from '../shared/call-options.js';
import { eventNameField, scopeOf } from './fields.js';

/**
 * Event relays: a service event posted to a Slack channel. The subscription's webhook is bankops's
 * own `/webhooks/service`, with a fresh key known only as its digest here; the key's lifecycle is
 * the tool's, so whoever asks (Slack's `/bank subscribe`, an assistant, the CLI) gets the same.
 */

const channelField = z
  .string()
  .regex(/^[CG][A-Z0-9]+$/, 'must be a Slack channel id (C… or G…)')
  .describe('Slack channel id, e.g. C0123ABCD.');

function webhooksOf(ctx: ToolContext): { keys: ServiceWebhooks['keys']; target: string } {
  const target = ctx.webhooks?.url();
  if (ctx.webhooks === undefined || target === undefined) {
    throw new CodedError({
      code: ErrorCode.NotConfigured,
      message:
        'BANKOPS_PUBLIC_URL is not set, so the service would not know where to deliver events. The operator sets it to the public address in front of `bankops serve` (a proxy or tunnel), then try again.',
    });
  }
  return { keys: ctx.webhooks.keys, target };
}

export const createEventRelay = defineTool({
  name: 'create_event_relay',
  title: 'Post a service event to a Slack channel',
  description:
    'Posts each delivery of one service event to a Slack channel: subscribes (or re-points) the event to bankops, with a new key. Undo: delete_subscription.',
  toolset: 'notifications',
  input: z.object({
    event_name: eventNameField.regex(
      /^[a-z0-9_.-]{1,64}$/i,
      'is not an event name (see list_webhook_events)',
    ),
    channel: channelField,
  }),
  output: z.object({
    event_name: z.string().describe('The event relayed.'),
    channel: z.string().describe('The Slack channel its deliveries are posted to.'),
    subscription: z
      .enum(['created', 'updated'])
      .describe('Whether the subscription was new or pointed here.'),
    result: NotificationResultSchema.describe("The service's answer."),
  }),
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  async run(input, ctx) {
    const { keys, target } = webhooksOf(ctx);
    const key = randomBytes(32).toString('base64url');
    // Recorded before the service has it, so its first delivery is never refused.
    await keys.add(key, { eventName: input.event_name, channel: input.channel, createdBy: ctx.actorName });
    const scope = scopeOf({}, ctx.defaults);
    const delivery = { subscription_type: 'w' as const, webhook_url: target, x_api_key: key };
    try {
      let subscription: 'created' | 'updated' = 'created';
      let result: z.infer<typeof NotificationResultSchema>;
      try {
        result = await ctx.client.notifications.subscribe(
          { event_name: input.event_name, ...scope, created_by: ctx.actorName, ...delivery },
          writeOptions(ctx),
        );
      } catch (error) {
        // One subscription per event and scope: when one exists the service refuses a second, and
        // it is pointed here with the new key instead (its own request id: another call).
        if (!(error instanceof CodedError) || error.code !== ErrorCode.Service) throw error;
        subscription = 'updated';
        result = await ctx.client.notifications.updateSubscription(
          { event_name: input.event_name, ...scope, updated_by: ctx.actorName, ...delivery },
          { ...writeOptions(ctx), requestId: `${ctx.requestId}.update` },
        );
      }
      await keys.keepOnly(input.event_name, key);
      return { event_name: input.event_name, channel: input.channel, subscription, result };
    } catch (error) {
      await keys.remove(key);
      throw error;
    }
  },
});
