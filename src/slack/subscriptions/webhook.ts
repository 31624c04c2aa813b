import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { AuditLog } from '../../core/audit/index.js';
import type { CardDirectory } from '../../core/cards.js';
import { header, readRawBody, sendJson } from '../../core/http-server.js';
import type { Logger } from '../../core/log.js';
import type { WebhookKeys } from '../../core/webhooks.js';
import { type CardWords, cardIdsOf, serviceEventMessages } from '../render/service-event.js';
import type { ServiceDeliveries } from '../store/deliveries.js';
import type { SlackOutbox } from '../store/outbox.js';

const DeliverySchema = z.looseObject({
  event_id: z.string().trim().min(1).max(256),
  event_name: z.string().trim().min(1).max(128),
  event_description: z.string().nullish(),
  occurred_at: z.string().nullish(),
  data: z.unknown().optional(),
});

/** `••••4821` for a card bankops has seen; nothing for one it has not. */
async function cardWords(cards: Pick<CardDirectory, 'find'> | undefined, data: unknown): Promise<CardWords> {
  const known = new Map<string, string>();
  for (const cardId of new Set(cardIdsOf(data))) {
    const four = (await cards?.find(cardId))?.lastFour;
    if (four !== undefined) known.set(cardId, `••••${four}`);
  }
  return (cardId) => known.get(cardId);
}

/** Who appears in the audit log for a delivery: the service, through its webhook. */
const ACTOR = 'service:webhook';
const AUDIT_TOOL = 'service_event';

export interface ServiceWebhookOptions {
  deliveries: ServiceDeliveries;
  audit: AuditLog;
  keys: WebhookKeys;
  outbox: SlackOutbox;
  log: Logger;
  /** The cards bankops has seen, so an event names a card by its last four. */
  cards?: Pick<CardDirectory, 'find'>;
  maxBodyBytes?: number;
}

/**
 * `POST /webhooks/service`: the service's event deliveries (docs/sandbox.md "Delivery"). The
 * `x-api-key` must be a key bankops made for a subscription of that event (compared in constant
 * time with the stored digests), else 401. Each delivery is audited with its event id and name,
 * never its key. The first delivery of an event id is recorded and its message queued for the
 * subscribing channel in one transaction; a repeat is answered 200 and posts nothing.
 */
export function serviceWebhookHandler(options: ServiceWebhookOptions) {
  const { deliveries, audit, keys, outbox, log } = options;

  const refuse = (
    res: ServerResponse,
    why: string,
    event: { eventId?: string; eventName?: string },
  ): void => {
    log.warn('webhook: delivery refused', { reason: why, ...event });
    audit.append({
      actor: ACTOR,
      frontEnd: 'system',
      tool: AUDIT_TOOL,
      input: event,
      decision: 'deny',
      event: 'requested',
      outcome: 'failed',
      error: why,
    });
    sendJson(res, 401, { error: 'unknown key' });
  };

  /**
   * The delivery recorded and its messages queued in one transaction; its audit entry follows the
   * commit (the audit log is its own store), saying whether it was a repeat.
   */
  const accept = async (delivery: z.infer<typeof DeliverySchema>, channel: string): Promise<boolean> => {
    const messages = serviceEventMessages(
      {
        event_id: delivery.event_id,
        event_name: delivery.event_name,
        event_description: delivery.event_description ?? undefined,
        occurred_at: delivery.occurred_at ?? undefined,
        data: delivery.data,
      },
      await cardWords(options.cards, delivery.data),
    );
    const first = await deliveries.accept(
      { eventId: delivery.event_id, eventName: delivery.event_name },
      messages.map((message) => ({
        method: 'chat.postMessage',
        args: { channel, ...message, unfurl_links: false },
      })),
    );
    audit.append({
      actor: ACTOR,
      frontEnd: 'system',
      tool: AUDIT_TOOL,
      input: { eventId: delivery.event_id, eventName: delivery.event_name, channel, repeat: !first },
      decision: 'allow',
      event: 'requested',
      outcome: 'ok',
    });
    return first;
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      sendJson(res, 405, { error: 'the service POSTs deliveries here' });
      return;
    }
    const read = await readRawBody(req, options.maxBodyBytes ?? 256 * 1024);
    if (!read.ok) {
      if (read.reason === 'too_large') sendJson(res, 413, { error: 'delivery too large' });
      return;
    }
    let parsed: z.infer<typeof DeliverySchema> | undefined;
    try {
      const result = DeliverySchema.safeParse(JSON.parse(read.body.toString('utf8')));
      if (result.success) parsed = result.data;
    } catch {
      // not JSON: refused below, after the key (an unauthenticated caller learns nothing about the body)
    }
    const ids = parsed === undefined ? {} : { eventId: parsed.event_id, eventName: parsed.event_name };
    const key = header(req, 'x-api-key');
    if (key === undefined || key === '') {
      refuse(res, 'no x-api-key', ids);
      return;
    }
    const target = await keys.match(key);
    if (target === undefined) {
      refuse(res, 'the key is not one bankops made for a subscription', ids);
      return;
    }
    if (parsed === undefined) {
      sendJson(res, 400, { error: 'a delivery is JSON with event_id and event_name' });
      return;
    }
    if (parsed.event_name !== target.eventName) {
      refuse(res, `the key was made for ${target.eventName}, not ${parsed.event_name}`, ids);
      return;
    }
    const posted = await accept(parsed, target.channel);
    outbox.wake();
    log.info('webhook: delivery received', { ...ids, repeat: !posted });
    sendJson(res, 200, { ok: true, ...(posted ? {} : { repeat: true }) });
  };
}
