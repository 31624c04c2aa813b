import type { SandboxEvent } from '../../events.js';
import type { SandboxContext } from '../../types.js';
import { isoUtc } from '../../validate.js';
import { describeEvent, type EventName, isCatalogEvent } from './catalog.js';
import { DEFAULT_SENDER } from './rules.js';
import {
  type Delivery,
  MAX_DELIVERY_LOG,
  type NotificationsState,
  type Subscription,
  type WebhookDelivery,
} from './state.js';
import { postWebhook } from './webhook.js';

/** What one event produced: its id and the log entries made for it (copies). */
export interface DispatchResult {
  event_id: string;
  event_name: string;
  deliveries: Delivery[];
}

function matches(sub: Subscription, event: SandboxEvent, ctx: SandboxContext): boolean {
  return (
    sub.event_name === event.eventName &&
    sub.program_code === ctx.credentials.programCode &&
    sub.company_code === ctx.credentials.companyId &&
    (event.agentCode === undefined || sub.agent_code === event.agentCode) &&
    (event.subagentCode === undefined || sub.subagent_code === event.subagentCode)
  );
}

function log(state: NotificationsState, entry: Delivery): void {
  state.deliveries.push(entry);
  if (state.deliveries.length > MAX_DELIVERY_LOG) {
    state.deliveries.splice(0, state.deliveries.length - MAX_DELIVERY_LOG);
  }
}

/**
 * Turns events of every area into webhook POSTs (type `w`) and recorded e-mails (type `n`).
 * Runs synchronously inside the emitting operation up to the point of sending, so it must never
 * throw; the POSTs themselves run in the background and only update their log entries.
 */
export class Dispatcher {
  /** The result of the most recent event, read by the emit control route right after emitting. */
  last: DispatchResult | undefined;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly state: () => NotificationsState,
  ) {}

  readonly listener = (event: SandboxEvent): void => {
    try {
      this.last = this.dispatch(event);
    } catch {
      // A broken event (e.g. data that is not JSON) must not fail the operation that emitted it.
      this.last = undefined;
    }
  };

  private dispatch(event: SandboxEvent): DispatchResult {
    const eventId = this.ctx.newId('evt');
    const result: DispatchResult = { event_id: eventId, event_name: event.eventName, deliveries: [] };
    if (!isCatalogEvent(event.eventName)) return result;
    const eventName: EventName = event.eventName;
    const data: unknown = JSON.parse(JSON.stringify(event.data ?? {}));
    const occurredAt = isoUtc(this.ctx.clock.now());
    const state = this.state();
    const targets = state.subscriptions.filter((s) => matches(s, event, this.ctx));
    for (const sub of targets) {
      const base = {
        event_id: eventId,
        event_name: eventName,
        sl_no: sub.sl_no,
        agent_code: sub.agent_code,
        subagent_code: sub.subagent_code,
        occurred_at: occurredAt,
      };
      if (sub.subscription_type === 'n') {
        const entry: Delivery = {
          ...base,
          channel: 'email',
          from: sub.sender_email ?? DEFAULT_SENDER,
          to: this.ctx.credentials.userEmail,
          subject: `${describeEvent(eventName)} (${eventName})`,
          attempts: 1,
          status: 'sent',
        };
        log(state, entry);
        result.deliveries.push({ ...entry });
        continue;
      }
      if (sub.webhook_url === null || sub.api_key === null) continue;
      const entry: WebhookDelivery = {
        ...base,
        channel: 'webhook',
        webhook_url: sub.webhook_url,
        attempts: 0,
        status: 'pending',
      };
      log(state, entry);
      result.deliveries.push({ ...entry });
      const payload = JSON.stringify({
        event_id: eventId,
        event_name: eventName,
        event_description: describeEvent(eventName),
        program_code: sub.program_code,
        company_code: sub.company_code,
        agent_code: sub.agent_code,
        subagent_code: sub.subagent_code,
        occurred_at: occurredAt,
        data,
      });
      const request = {
        url: sub.webhook_url,
        apiKey: sub.api_key,
        eventId,
        payload,
        backoffMs: this.ctx.webhookBackoffMs,
      };
      void postWebhook(entry, request).catch(() => {
        entry.status = 'failed';
      });
    }
    return result;
  }
}
