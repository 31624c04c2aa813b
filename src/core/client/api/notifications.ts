import { type CallOptions, HttpClient } from '../http.js';
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

const PREFIX = '/svc/api/v1/notification';

/** Event subscriptions by webhook or e-mail (spec "Notifications"); only `x-api-key`, no token. */
export function notificationsApi(http: HttpClient) {
  return {
    /** GET /svc/api/v1/notification/getallwebhooks?program_code=: the subscribable events. */
    listEvents: async (query: ListEventsQuery, options?: CallOptions) => {
      const q = HttpClient.checkRequest('notifications.listEvents', ListEventsQuerySchema, query);
      return http.call(
        {
          operation: 'notifications.listEvents',
          method: 'GET',
          path: `${PREFIX}/getallwebhooks`,
          headerSet: 'NOTIFY',
          query: q,
          envelope: 'notification',
          response: EventCatalogSchema,
        },
        options,
      );
    },

    /**
     * POST /svc/api/v1/notification/subscribe: subscribes to one event. Type `w` needs
     * `webhook_url` and `x_api_key` (the key the webhook receives); type `n` sends e-mail.
     */
    subscribe: async (input: SubscribeInput, options?: CallOptions) => {
      const body = HttpClient.checkRequest('notifications.subscribe', SubscribeRequestSchema, input);
      return http.call(
        {
          operation: 'notifications.subscribe',
          method: 'POST',
          path: `${PREFIX}/subscribe`,
          headerSet: 'NOTIFY',
          body,
          envelope: 'notification',
          take: 'envelope',
          response: NotificationResultSchema,
        },
        options,
      );
    },

    /**
     * POST /svc/api/v1/notification/subscribedwebhook?program_code=: the subscriptions of an agent
     * and sub-agent. The answer is a bare array, without an envelope.
     */
    listSubscriptions: async (input: ListSubscriptionsInput, options?: CallOptions) => {
      const { program_code, agent_code, subagent_code } = HttpClient.checkRequest(
        'notifications.listSubscriptions',
        ListSubscriptionsInputSchema,
        input,
      );
      return http.call(
        {
          operation: 'notifications.listSubscriptions',
          method: 'POST',
          path: `${PREFIX}/subscribedwebhook`,
          headerSet: 'NOTIFY',
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
    updateSubscription: async (input: UpdateSubscriptionInput, options?: CallOptions) => {
      const body = HttpClient.checkRequest(
        'notifications.updateSubscription',
        UpdateSubscriptionRequestSchema,
        input,
      );
      return http.call(
        {
          operation: 'notifications.updateSubscription',
          method: 'PATCH',
          path: `${PREFIX}/subscribe`,
          headerSet: 'NOTIFY',
          body,
          envelope: 'notification',
          take: 'envelope',
          response: NotificationResultSchema,
        },
        options,
      );
    },

    /** DELETE /svc/api/v1/notification/subscribe (JSON body): removes a subscription. */
    unsubscribe: async (input: UnsubscribeInput, options?: CallOptions) => {
      const body = HttpClient.checkRequest('notifications.unsubscribe', UnsubscribeRequestSchema, input);
      return http.call(
        {
          operation: 'notifications.unsubscribe',
          method: 'DELETE',
          path: `${PREFIX}/subscribe`,
          headerSet: 'NOTIFY',
          body,
          envelope: 'notification',
          take: 'envelope',
          response: NotificationResultSchema,
        },
        options,
      );
    },
  };
}
