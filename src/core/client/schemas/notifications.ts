import { z } from 'zod';

const text = z.string().min(1);
const webhookUrl = z.url({ protocol: /^https?$/ });

const SUBSCRIPTION_TYPES = ['w', 'n'] as const;
/** `w`: webhook delivery; `n`: e-mail notification. */
const SubscriptionTypeSchema = z.enum(SUBSCRIPTION_TYPES);

export const ListEventsQuerySchema = z.object({ program_code: text });
export type ListEventsQuery = z.infer<typeof ListEventsQuerySchema>;

/** One entry of the event catalog. */
export const EventCatalogEntrySchema = z.looseObject({
  event_name: z.string(),
  event_description: z.string().nullish(),
  program_code: z.string().nullish(),
});
export const EventCatalogSchema = z.array(EventCatalogEntrySchema);

const subscriptionKey = {
  event_name: text,
  agent_code: text,
  subagent_code: text,
  program_code: text,
  company_code: text,
};

/**
 * Body of POST /subscribe. Type `w` needs `webhook_url` and the subscription's API key, sent as
 * `x_api_key` (the spec's sample bodies); type `n` needs neither, and `sender_email` is used only
 * if the operator whitelisted it.
 */
export const SubscribeRequestSchema = z.discriminatedUnion('subscription_type', [
  z.object({
    ...subscriptionKey,
    subscription_type: z.literal('w'),
    created_by: text,
    webhook_url: webhookUrl,
    x_api_key: text,
    sender_email: text.optional(),
  }),
  z.object({
    ...subscriptionKey,
    subscription_type: z.literal('n'),
    created_by: text,
    webhook_url: webhookUrl.optional(),
    x_api_key: text.optional(),
    sender_email: text.optional(),
  }),
]);
export type SubscribeInput = z.input<typeof SubscribeRequestSchema>;

/**
 * Body of PATCH /subscribe. The spec calls `webhook_url`, `sender_email` and the API key
 * "conditional" without saying when on an update, so the service decides.
 */
export const UpdateSubscriptionRequestSchema = z.object({
  ...subscriptionKey,
  subscription_type: SubscriptionTypeSchema,
  updated_by: text,
  webhook_url: webhookUrl.optional(),
  x_api_key: text.optional(),
  sender_email: text.optional(),
});
export type UpdateSubscriptionInput = z.input<typeof UpdateSubscriptionRequestSchema>;

/** Body of DELETE /subscribe. */
export const UnsubscribeRequestSchema = z.object(subscriptionKey);
export type UnsubscribeInput = z.input<typeof UnsubscribeRequestSchema>;

/** Input of listSubscriptions: `program_code` goes in the query, the codes in the body. */
export const ListSubscriptionsInputSchema = z.object({
  program_code: text,
  agent_code: text,
  subagent_code: text,
});
export type ListSubscriptionsInput = z.input<typeof ListSubscriptionsInputSchema>;

/** Notification subscription record (spec "Resources: Notification subscription"). */
export const SubscriptionRecordSchema = z.looseObject({
  event_name: z.string(),
  subscription_type: z.string(),
  agent_code: z.string(),
  subagent_code: z.string(),
  program_code: z.string(),
  company_code: z.string().nullish(),
  webhook_url: z.string().nullish(),
  sender_email: z.string().nullish(),
  created_by: z.string().nullish(),
  updated_by: z.string().nullish(),
  /** HTTP-date strings. */
  created_time: z.string().nullish(),
  updated_time: z.string().nullish(),
  sl_no: z.number().int().nullish(),
});
export const SubscriptionListSchema = z.array(SubscriptionRecordSchema);

/** `{message, status}` of subscribe, update and unsubscribe. */
export const NotificationResultSchema = z.looseObject({
  message: z.string().nullish(),
  status: z.string(),
});
