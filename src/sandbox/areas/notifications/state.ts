import type { EventName } from './catalog.js';

export type SubscriptionType = 'w' | 'n';

/** A stored subscription; the API key is kept in full here and masked in every answer. */
export interface Subscription {
  sl_no: number;
  event_name: EventName;
  subscription_type: SubscriptionType;
  agent_code: string;
  subagent_code: string;
  program_code: string;
  company_code: string;
  webhook_url: string | null;
  sender_email: string | null;
  api_key: string | null;
  created_by: string;
  updated_by: string | null;
  /** HTTP-date strings of the sandbox clock. */
  created_time: string;
  updated_time: string;
}

interface DeliveryBase {
  event_id: string;
  event_name: EventName;
  /** The subscription it was made for. */
  sl_no: number;
  agent_code: string;
  subagent_code: string;
  occurred_at: string;
}

/** One webhook POST of one event to one subscription, with its retries. Never holds the API key. */
export interface WebhookDelivery extends DeliveryBase {
  channel: 'webhook';
  webhook_url: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  last_status_code?: number;
  last_error?: string;
}

/** The e-mail a type `n` subscription "sends" (the sandbox records it instead of sending). */
export interface EmailDelivery extends DeliveryBase {
  channel: 'email';
  from: string;
  to: string;
  subject: string;
  attempts: 1;
  status: 'sent';
}

export type Delivery = WebhookDelivery | EmailDelivery;

export interface NotificationsState {
  subscriptions: Subscription[];
  nextSlNo: number;
  /** Newest last; capped at MAX_DELIVERY_LOG entries. */
  deliveries: Delivery[];
}

/** Keeps a long-running sandbox's memory bounded; older entries are dropped first. */
export const MAX_DELIVERY_LOG = 1000;

/** The (event, program, company, agent, sub-agent) key: one subscription per key (spec "Events"). */
export function sameKey(
  s: Pick<Subscription, 'event_name' | 'program_code' | 'company_code' | 'agent_code' | 'subagent_code'>,
  k: Pick<Subscription, 'event_name' | 'program_code' | 'company_code' | 'agent_code' | 'subagent_code'>,
): boolean {
  return (
    s.event_name === k.event_name &&
    s.program_code === k.program_code &&
    s.company_code === k.company_code &&
    s.agent_code === k.agent_code &&
    s.subagent_code === k.subagent_code
  );
}
