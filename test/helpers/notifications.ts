import { headerSets, type RawResponse, type RunningSandbox, raw } from './sandbox.js';

export const NOTIFY_PREFIX = '/svc/api/v1/notification';

/** A request to a notification endpoint with the NOTIFY header set (x-api-key, Content-Type). */
export function notify(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<RawResponse> {
  return raw(sandbox, method, `${NOTIFY_PREFIX}${path}`, {
    headers: { ...headerSets(sandbox).NOTIFY(), ...headers },
    ...(body === undefined ? {} : { body }),
  });
}

/** The five fields that identify a subscription, filled with the sandbox's demo codes. */
export function subscriptionKey(sandbox: RunningSandbox, overrides: Record<string, unknown> = {}) {
  const c = sandbox.credentials;
  return {
    event_name: 'card_create',
    agent_code: c.agentCode,
    subagent_code: c.subagentCode,
    program_code: c.programCode,
    company_code: c.companyId,
    ...overrides,
  };
}

/** Subscribes `url` as a type `w` webhook for an event; throws unless the sandbox accepts it. */
export async function subscribeWebhook(
  sandbox: RunningSandbox,
  url: string,
  apiKey: string,
  overrides: Record<string, unknown> = {},
): Promise<void> {
  const res = await notify(sandbox, 'POST', '/subscribe', {
    ...subscriptionKey(sandbox),
    subscription_type: 'w',
    created_by: 'test',
    webhook_url: url,
    x_api_key: apiKey,
    ...overrides,
  });
  if (res.status !== 200) throw new Error(`subscribe failed: ${JSON.stringify(res.body)}`);
}

/** The sandbox's delivery log (`GET /_sandbox/notifications/deliveries`). */
export async function deliveries(sandbox: RunningSandbox): Promise<Record<string, unknown>[]> {
  const res = await raw(sandbox, 'GET', '/_sandbox/notifications/deliveries');
  if (res.status !== 200) throw new Error(`deliveries failed: ${JSON.stringify(res.body)}`);
  return res.body.deliveries;
}

/** Emits a catalog event through the sandbox's control route; returns its answer. */
export function emitEvent(sandbox: RunningSandbox, body: Record<string, unknown>): Promise<RawResponse> {
  return raw(sandbox, 'POST', '/_sandbox/notifications/emit', {
    headers: { 'content-type': 'application/json' },
    body,
  });
}
