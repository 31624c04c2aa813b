import type { z } from 'zod';
import { type CallOptions, HttpClient, type HttpMethod } from '../http.js';
import {
  EventCatalogSchema,
  type ListEventsQuery,
  ListEventsQuerySchema,
  type ListSubscriptionsInput,
  ListSubscriptionsInputSchema,
  NotificationResultSchema,
  type SubscribeInput,
  SubscribeRequestSchema,
  SubscriptionListSchema,
  type UnsubscribeInput,
  UnsubscribeRequestSchema,
  type UpdateSubscriptionInput,
  UpdateSubscriptionRequestSchema,
} from '../schemas/notifications.js';
import { family } from './family.js';

const PREFIX = '/svc/api/v1/notification';

/** Event subscriptions by webhook or e-mail (spec "Notifications"); only `x-api-key`, no token. */
export function notificationsApi(http: HttpClient) {
  const { send, checked } = family(http, { prefix: PREFIX, headerSet: 'NOTIFY', envelope: 'notification' });
  /** Subscribe, change and unsubscribe: `/subscribe` with a checked body, answered by `{message, status}`. */
  const subscription = (
    operation: string,
    method: HttpMethod,
    schema: z.ZodType,
    input: unknown,
    options: CallOptions | undefined,
  ) =>
    checked(operation, method, '/subscribe', NotificationResultSchema, options, {
      body: [schema, input],
      take: 'envelope',
    });

  return {
    /** GET /svc/api/v1/notification/getallwebhooks?program_code=: the subscribable events. */
    listEvents: (query: ListEventsQuery, options?: CallOptions) =>
      checked('notifications.listEvents', 'GET', '/getallwebhooks', EventCatalogSchema, options, {
        query: [ListEventsQuerySchema, query],
      }),

    /**
     * POST /svc/api/v1/notification/subscribe: subscribes to one event. Type `w` needs
     * `webhook_url` and `x_api_key` (the key the webhook receives); type `n` sends e-mail.
     */
    subscribe: (input: SubscribeInput, options?: CallOptions) =>
      subscription('notifications.subscribe', 'POST', SubscribeRequestSchema, input, options),

    /**
     * POST /svc/api/v1/notification/subscribedwebhook?program_code=: the subscriptions of an agent
     * and sub-agent. The answer is a bare array, without an envelope.
     */
    listSubscriptions: async (input: ListSubscriptionsInput, options?: CallOptions) => {
      const operation = 'notifications.listSubscriptions';
      const { program_code, agent_code, subagent_code } = HttpClient.checkRequest(
        operation,
        ListSubscriptionsInputSchema,
        input,
      );
      return send(
        {
          operation,
          method: 'POST',
          route: '/subscribedwebhook',
          query: { program_code },
          body: { agent_code, subagent_code },
          envelope: 'bare',
          take: 'body',
          response: SubscriptionListSchema,
        },
        options,
      );
    },

    /** PATCH /svc/api/v1/notification/subscribe: changes a subscription's delivery. */
    updateSubscription: (input: UpdateSubscriptionInput, options?: CallOptions) =>
      subscription(
        'notifications.updateSubscription',
        'PATCH',
        UpdateSubscriptionRequestSchema,
        input,
        options,
      ),

    /** DELETE /svc/api/v1/notification/subscribe (JSON body): removes a subscription. */
    unsubscribe: (input: UnsubscribeInput, options?: CallOptions) =>
      subscription('notifications.unsubscribe', 'DELETE', UnsubscribeRequestSchema, input, options),
  };
}
