import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext } from '../../types.js';
import { parseInput } from '../../validate.js';
import type { EventName } from './catalog.js';
import {
  checkCompany,
  checkEvent,
  checkProgram,
  checkWebhookUrl,
  pickApiKey,
  resolveSender,
} from './rules.js';
import { SubscribeBody, UnsubscribeBody, UpdateBody } from './schemas.js';
import { type NotificationsState, type Subscription, sameKey } from './state.js';

const PATH = '/svc/api/v1/notification/subscribe';
const KEY_REQUIRED = "x_api_key: is required when subscription_type is 'w' (also accepted as x-api-key)";
const URL_REQUIRED = "webhook_url: is required when subscription_type is 'w'";

interface Key {
  event_name: EventName;
  program_code: string;
  company_code: string;
  agent_code: string;
  subagent_code: string;
}

/** Validates the five key fields shared by POST, PATCH and DELETE. */
function keyOf(ctx: SandboxContext, body: Omit<Key, 'event_name'> & { event_name: string }): Key {
  const event_name = checkEvent(body.event_name);
  checkProgram(ctx, body.program_code);
  checkCompany(ctx, body.company_code);
  return {
    event_name,
    program_code: body.program_code,
    company_code: body.company_code,
    agent_code: body.agent_code,
    subagent_code: body.subagent_code,
  };
}

const describeKey = (k: Key): string =>
  `event_name '${k.event_name}', agent_code '${k.agent_code}', subagent_code '${k.subagent_code}'`;

function find(state: NotificationsState, key: Key): Subscription {
  const found = state.subscriptions.find((s) => sameKey(s, key));
  if (found === undefined)
    throw invalid(`no subscription for ${describeKey(key)} in this program and company`);
  return found;
}

const withNote = (message: string, note: string | undefined): string =>
  note === undefined ? message : `${message}; ${note}`;

/** POST, PATCH and DELETE /subscribe. */
export function subscribeRoutes(ctx: SandboxContext, state: () => NotificationsState): RouteDef[] {
  const now = (): string => ctx.clock.now().toUTCString();
  return [
    {
      operation: 'notifications.subscribe',
      method: 'POST',
      path: PATH,
      envelope: 'notification',
      headers: 'NOTIFY',
      successCode: 200,
      idempotent: true,
      handler: (req) => {
        const body = parseInput(SubscribeBody, req.body);
        const key = keyOf(ctx, body);
        let webhookUrl: string | null = null;
        let apiKey: string | null = null;
        let sender: string | null = null;
        let note: string | undefined;
        if (body.subscription_type === 'w') {
          if (body.webhook_url === undefined) throw invalid(URL_REQUIRED);
          webhookUrl = checkWebhookUrl(body.webhook_url);
          apiKey = pickApiKey(body) ?? null;
          if (apiKey === null) throw invalid(KEY_REQUIRED);
        } else {
          const resolved = resolveSender(ctx, body.sender_email, null);
          sender = resolved.sender;
          note = resolved.note;
        }
        const s = state();
        if (s.subscriptions.some((x) => sameKey(x, key))) {
          throw invalid(
            `a subscription for ${describeKey(key)} already exists (one per event, program, company, agent and sub-agent); change it with PATCH /subscribe`,
          );
        }
        const time = now();
        s.subscriptions.push({
          sl_no: s.nextSlNo,
          ...key,
          subscription_type: body.subscription_type,
          webhook_url: webhookUrl,
          sender_email: sender,
          api_key: apiKey,
          created_by: body.created_by,
          updated_by: null,
          created_time: time,
          updated_time: time,
        });
        s.nextSlNo += 1;
        return { message: withNote(`subscribed to ${key.event_name}`, note) };
      },
    },
    {
      operation: 'notifications.updateSubscription',
      method: 'PATCH',
      path: PATH,
      envelope: 'notification',
      headers: 'NOTIFY',
      successCode: 200,
      idempotent: true,
      handler: (req) => {
        const body = parseInput(UpdateBody, req.body);
        const key = keyOf(ctx, body);
        const sub = find(state(), key);
        let webhookUrl: string | null = null;
        let apiKey: string | null = null;
        let sender: string | null = null;
        let note: string | undefined;
        if (body.subscription_type === 'w') {
          // Fields not sent keep the record's values, so a URL change does not need the key again.
          webhookUrl = body.webhook_url === undefined ? sub.webhook_url : checkWebhookUrl(body.webhook_url);
          if (webhookUrl === null) throw invalid(URL_REQUIRED);
          apiKey = pickApiKey(body) ?? sub.api_key;
          if (apiKey === null) throw invalid(KEY_REQUIRED);
        } else {
          const current = sub.subscription_type === 'n' ? sub.sender_email : null;
          const resolved = resolveSender(ctx, body.sender_email, current);
          sender = resolved.sender;
          note = resolved.note;
        }
        sub.subscription_type = body.subscription_type;
        sub.webhook_url = webhookUrl;
        sub.api_key = apiKey;
        sub.sender_email = sender;
        sub.updated_by = body.updated_by;
        sub.updated_time = now();
        return { message: withNote(`subscription to ${key.event_name} updated`, note) };
      },
    },
    {
      operation: 'notifications.unsubscribe',
      method: 'DELETE',
      path: PATH,
      envelope: 'notification',
      headers: 'NOTIFY',
      successCode: 200,
      idempotent: true,
      handler: (req) => {
        const key = keyOf(ctx, parseInput(UnsubscribeBody, req.body));
        const s = state();
        const sub = find(s, key);
        s.subscriptions = s.subscriptions.filter((x) => x !== sub);
        return { message: `unsubscribed from ${key.event_name}` };
      },
    },
  ];
}
