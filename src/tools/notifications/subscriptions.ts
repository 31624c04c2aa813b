import { z } from 'zod';
import {
  NotificationResultSchema,
  SubscriptionRecordSchema,
} from '../../core/client/schemas/notifications.js';
import { InputError } from '../../core/input-error.js';
import { optional } from '../../core/optional.js';
import { REDACTED } from '../../core/redact.js';
import { defineTool } from '../../core/tool.js';
import { readOptions, writeOptions } from '../shared/call-options.js';
import {
  apiKeyField,
  eventNameField,
  requireWebhookFields,
  scopeFields,
  scopeOf,
  senderEmailField,
  subscriptionTypeField,
  webhookUrlField,
} from './fields.js';

/**
 * The delivery fields of the chosen type only (webhook: URL and key; e-mail: sender), and only
 * those given: a key typed by mistake on an e-mail subscription is not sent anywhere.
 */
function deliveryOf(input: {
  subscription_type: 'w' | 'n';
  webhook_url?: string | undefined;
  x_api_key?: string | undefined;
  sender_email?: string | undefined;
}) {
  if (input.subscription_type === 'n')
    return input.sender_email === undefined ? {} : { sender_email: input.sender_email };
  return {
    ...optional('webhook_url', input.webhook_url),
    ...optional('x_api_key', input.x_api_key),
  };
}

/** What a subscription is: its event and scope, how it delivers and where. */
const subscriptionFields = {
  event_name: eventNameField,
  subscription_type: subscriptionTypeField,
  webhook_url: webhookUrlField,
  x_api_key: apiKeyField,
  sender_email: senderEmailField,
  ...scopeFields,
};

export const createSubscription = defineTool({
  name: 'create_subscription',
  title: 'Subscribe to an event',
  description:
    'Subscribes to one event: type w posts it to webhook_url (x_api_key in the x-api-key header), type n sends an e-mail. One per event and scope (see update_subscription, delete_subscription).',
  toolset: 'notifications',
  input: z
    .object({
      ...subscriptionFields,
      created_by: z.string().min(1).optional().describe('Who creates it; defaults to the acting user.'),
    })
    .superRefine(requireWebhookFields),
  output: NotificationResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  secretFields: ['x_api_key'],
  async run(input, ctx) {
    const common = {
      event_name: input.event_name,
      ...scopeOf(input, ctx.defaults),
      created_by: input.created_by ?? ctx.actorName,
    };
    // Each type gets only its own delivery fields: a key typed by mistake on an e-mail
    // subscription is not sent anywhere.
    if (input.subscription_type === 'n') {
      const sender = input.sender_email === undefined ? {} : { sender_email: input.sender_email };
      return ctx.client.notifications.subscribe(
        { ...common, subscription_type: 'n', ...sender },
        writeOptions(ctx),
      );
    }
    // The input refinement guarantees both for type w; the client checks again before sending.
    const webhook = { webhook_url: input.webhook_url ?? '', x_api_key: input.x_api_key ?? '' };
    return ctx.client.notifications.subscribe(
      { ...common, subscription_type: 'w', ...webhook },
      writeOptions(ctx),
    );
  },
});

export const listSubscriptions = defineTool({
  name: 'list_subscriptions',
  title: 'List event subscriptions',
  description:
    'Lists the event subscriptions of an agent and sub-agent in a program: event, type, webhook URL or sender, who created and changed them, when.',
  toolset: 'notifications',
  input: z.object({
    program_code: scopeFields.program_code,
    agent_code: scopeFields.agent_code,
    subagent_code: scopeFields.subagent_code,
  }),
  output: z.object({
    subscriptions: z.array(SubscriptionRecordSchema).describe('The subscriptions, oldest first.'),
  }),
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  // Records may carry the subscription's key (the sandbox masks it; the spec does not say). Whoever
  // holds it can forge deliveries to the customer's webhook, and this is a read open to viewers:
  // the key never leaves this tool, whatever the service returns.
  secretFields: ['x_api_key'],
  async run(input, ctx) {
    const { program_code, agent_code, subagent_code } = scopeOf(input, ctx.defaults);
    const records = await ctx.client.notifications.listSubscriptions(
      { program_code, agent_code, subagent_code },
      readOptions(ctx),
    );
    return { subscriptions: records.map(withoutKey) };
  },
});

/** A subscription record with its webhook key replaced by a marker (or absent if it had none). */
function withoutKey<R extends Record<string, unknown>>(record: R): R {
  if (record.x_api_key === undefined || record.x_api_key === null) return record;
  return { ...record, x_api_key: REDACTED };
}

export const updateSubscription = defineTool({
  name: 'update_subscription',
  title: 'Change an event subscription',
  description:
    'Changes how a subscription delivers (type, webhook_url, x_api_key, sender_email); omitted webhook fields keep their values. Undo by updating again.',
  toolset: 'notifications',
  input: z.object({
    ...subscriptionFields,
    updated_by: z.string().min(1).optional().describe('Who changes it; defaults to the acting user.'),
  }),
  output: NotificationResultSchema,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  secretFields: ['x_api_key'],
  run: (input, ctx) =>
    ctx.client.notifications.updateSubscription(
      {
        event_name: input.event_name,
        subscription_type: input.subscription_type,
        ...scopeOf(input, ctx.defaults),
        updated_by: input.updated_by ?? ctx.actorName,
        ...deliveryOf(input),
      },
      writeOptions(ctx),
    ),
});

export const deleteSubscription = defineTool({
  name: 'delete_subscription',
  title: 'Delete an event subscription',
  description:
    'Removes the subscription to one event: its webhooks or e-mails stop at once. Cannot be undone; resubscribing needs the settings (URL, key) again.',
  toolset: 'notifications',
  input: z.object({
    event_name: eventNameField.describe('Event whose subscription to remove, e.g. card_create.'),
    ...scopeFields,
  }),
  output: NotificationResultSchema,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  // Approvers see where the notifications go today, and that they stop; an unknown one is refused.
  async preview(input, ctx) {
    const scope = scopeOf(input, ctx.defaults);
    const records = await ctx.client.notifications.listSubscriptions(
      { program_code: scope.program_code, agent_code: scope.agent_code, subagent_code: scope.subagent_code },
      readOptions(ctx),
    );
    const found = records.find(
      (r) => r.event_name === input.event_name && r.company_code === scope.company_code,
    );
    if (found === undefined) {
      throw new InputError(
        'event_name',
        `no subscription to ${input.event_name} for program ${scope.program_code}`,
      );
    }
    const type = String(found.subscription_type ?? '');
    const destination = type === 'w' ? found.webhook_url : found.sender_email;
    const to = typeof destination === 'string' && destination !== '' ? destination : undefined;
    return {
      summary: `Stop ${type === 'n' ? 'e-mail' : 'webhook'} notifications of ${input.event_name} for program ${scope.program_code}${to === undefined ? '' : ` (now sent to ${to})`}`,
      facts: {
        kind: 'subscription_delete',
        event: input.event_name,
        program: scope.program_code,
        ...(type === '' ? {} : { type }),
        ...optional('destination', to),
      },
      details: withoutKey(found),
    };
  },
  // The request id makes a re-executed approval replay the first deletion instead of failing.
  async run(input, ctx) {
    const result = await ctx.client.notifications.unsubscribe(
      { event_name: input.event_name, ...scopeOf(input, ctx.defaults) },
      writeOptions(ctx),
    );
    // An event relayed to Slack (create_event_relay): its keys serve nothing now.
    await ctx.webhooks?.keys.forgetEvent(input.event_name);
    return result;
  },
});
