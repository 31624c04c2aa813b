import type { AnyTool } from '../../core/tool.js';
import { listWebhookEvents } from './events.js';
import { createEventRelay } from './relays.js';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  updateSubscription,
} from './subscriptions.js';

/** Notification tools (toolset `notifications`): the event catalog and event subscriptions. */
export const notificationTools: readonly AnyTool[] = [
  listWebhookEvents,
  createSubscription,
  listSubscriptions,
  updateSubscription,
  deleteSubscription,
  createEventRelay,
];
