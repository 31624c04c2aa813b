import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS, startSandbox } from '../../src/sandbox/index.js';
import {
  deliveries,
  emitEvent,
  notify,
  subscribeWebhook,
  subscriptionKey,
} from '../helpers/notifications.js';
import { type RunningSandbox, raw } from '../helpers/sandbox.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const KEY = 'receiver-secret-key-7a1c';

let sandbox: RunningSandbox;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  // Short waits between attempts: the retries are what is shown, not their production pacing.
  sandbox = await startSandbox(0, { credentials: { ...SANDBOX_DEFAULTS }, webhookBackoffMs: [20, 20] });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(respond?: (index: number) => number): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver(respond === undefined ? {} : { respond });
  receivers.push(r);
  return r;
}

/** Polls the delivery log until `done` holds for the entry of `eventId` (the log updates in the background). */
async function logEntryWhen(
  eventId: string,
  done: (e: Record<string, unknown>) => boolean,
  timeoutMs = 5000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entry = (await deliveries(sandbox)).find((e) => e.event_id === eventId && e.channel === 'webhook');
    if (entry !== undefined && done(entry)) return entry;
    if (Date.now() > deadline) throw new Error(`delivery log entry not settled: ${JSON.stringify(entry)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('webhook delivery', () => {
  it('POSTs the documented payload with the subscription key in x-api-key', async () => {
    const hook = await receiver();
    await subscribeWebhook(sandbox, hook.url, KEY);
    const emitted = await emitEvent(sandbox, {
      event_name: 'card_create',
      data: { cardId: 'card_1', last4: '4242' },
    });
    expect(emitted.status).toBe(200);
    expect(emitted.body.event_name).toBe('card_create');
    expect(emitted.body.event_id).toMatch(/^evt_/);
    expect(emitted.body.deliveries).toHaveLength(1);
    expect(emitted.body.deliveries[0]).toMatchObject({
      channel: 'webhook',
      webhook_url: hook.url,
      status: 'pending',
    });

    const [got] = await hook.waitFor(1);
    const c = sandbox.credentials;
    expect(got?.method).toBe('POST');
    expect(got?.path).toBe('/webhook');
    expect(got?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-api-key': KEY,
      'x-event-id': emitted.body.event_id,
      'user-agent': 'bankops-sandbox',
    });
    const body = got?.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        'event_id',
        'event_name',
        'event_description',
        'program_code',
        'company_code',
        'agent_code',
        'subagent_code',
        'occurred_at',
        'data',
      ].sort(),
    );
    expect(body).toMatchObject({
      event_id: emitted.body.event_id,
      event_name: 'card_create',
      event_description: 'card creation',
      program_code: c.programCode,
      company_code: c.companyId,
      agent_code: c.agentCode,
      subagent_code: c.subagentCode,
      data: { cardId: 'card_1', last4: '4242' },
    });
    expect(body.occurred_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const entry = await logEntryWhen(emitted.body.event_id, (e) => e.status === 'delivered');
    expect(entry).toMatchObject({ attempts: 1, last_status_code: 200, webhook_url: hook.url });
    expect(JSON.stringify(await deliveries(sandbox))).not.toContain(KEY);
  });

  it('stamps occurred_at with the sandbox clock', async () => {
    const hook = await receiver();
    await subscribeWebhook(sandbox, hook.url, KEY);
    await raw(sandbox, 'POST', '/_sandbox/clock', {
      headers: { 'content-type': 'application/json' },
      body: { advanceSeconds: 400 * 86400 },
    });
    await emitEvent(sandbox, { event_name: 'card_create' });
    const [got] = await hook.waitFor(1);
    const occurred = Date.parse(String((got?.body as { occurred_at?: string } | undefined)?.occurred_at));
    expect(occurred - Date.now()).toBeGreaterThan(399 * 86400 * 1000);
  });

  it('retries a webhook that answers 500 twice, delivering on the third attempt', async () => {
    const hook = await receiver((i) => (i < 2 ? 500 : 200));
    await subscribeWebhook(sandbox, hook.url, KEY, { event_name: 'wallet_create' });
    const emitted = await emitEvent(sandbox, { event_name: 'wallet_create', data: { walletId: 'w_1' } });
    const got = await hook.waitFor(3);
    expect(got.map((d) => d.status)).toEqual([500, 500, 200]);
    expect(new Set(got.map((d) => d.headers['x-event-id']))).toEqual(new Set([emitted.body.event_id]));
    expect(got.map((d) => d.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);
    const entry = await logEntryWhen(emitted.body.event_id, (e) => e.status === 'delivered');
    expect(entry).toMatchObject({ attempts: 3, last_status_code: 200 });
    expect(entry.last_error).toBeUndefined();
  });

  it('gives up after 3 attempts on non-2xx answers or an unreachable URL, recording why without the key', async () => {
    const failing = await receiver(() => 503);
    const gone = await receiver();
    const goneUrl = gone.url;
    await gone.close();
    await subscribeWebhook(sandbox, failing.url, KEY, { event_name: 'card_status' });
    await subscribeWebhook(sandbox, goneUrl, KEY, { event_name: 'card_status', subagent_code: 'SUB-GONE' });
    const emitted = await emitEvent(sandbox, { event_name: 'card_status' });
    expect(emitted.body.deliveries).toHaveLength(2);
    await failing.waitFor(3);

    const settled = async (url: string) => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const entry = (await deliveries(sandbox)).find((e) => e.webhook_url === url);
        if (entry !== undefined && entry.status !== 'pending') return entry;
        if (Date.now() > deadline)
          throw new Error(`delivery to ${url} not settled: ${JSON.stringify(entry)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const answered = await settled(failing.url);
    expect(answered).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 503 });
    expect(answered.last_error).toContain('503');
    expect(failing.received).toHaveLength(3);

    const unreachable = await settled(goneUrl);
    expect(unreachable).toMatchObject({ status: 'failed', attempts: 3 });
    expect(unreachable.last_status_code).toBeUndefined();
    expect(typeof unreachable.last_error).toBe('string');
    expect(JSON.stringify(await deliveries(sandbox))).not.toContain(KEY);
  });

  it('stops delivering after DELETE /subscribe', async () => {
    const removed = await receiver();
    const kept = await receiver();
    await subscribeWebhook(sandbox, removed.url, KEY);
    await subscribeWebhook(sandbox, kept.url, KEY, { subagent_code: 'SUB-KEPT' });
    const del = await notify(sandbox, 'DELETE', '/subscribe', subscriptionKey(sandbox));
    expect(del.status).toBe(200);

    const emitted = await emitEvent(sandbox, { event_name: 'card_create' });
    // Deliveries are planned synchronously on emit: the deleted subscription got none.
    expect(emitted.body.deliveries.map((d: { webhook_url: string }) => d.webhook_url)).toEqual([kept.url]);
    await kept.waitFor(1);
    const log = await deliveries(sandbox);
    expect(log.some((e) => e.webhook_url === removed.url)).toBe(false);
    expect(removed.received).toHaveLength(0);
  });

  it('delivers only to the agent and sub-agent an event carries; to all when it carries none', async () => {
    const mine = await receiver();
    const theirs = await receiver();
    await subscribeWebhook(sandbox, mine.url, KEY);
    await subscribeWebhook(sandbox, theirs.url, KEY, { agent_code: 'AGT-B', subagent_code: 'SUB-B' });
    const scoped = await emitEvent(sandbox, {
      event_name: 'card_create',
      agent_code: 'AGT-B',
      subagent_code: 'SUB-B',
    });
    expect(scoped.body.deliveries.map((d: { webhook_url: string }) => d.webhook_url)).toEqual([theirs.url]);
    const [got] = await theirs.waitFor(1);
    expect(got?.body).toMatchObject({ agent_code: 'AGT-B', subagent_code: 'SUB-B' });

    const all = await emitEvent(sandbox, { event_name: 'card_create' });
    expect(all.body.deliveries).toHaveLength(2);
    await mine.waitFor(1);
    await theirs.waitFor(2);
  });

  it('records an e-mail for a type n subscription instead of POSTing', async () => {
    // kyc_complete is a seeded e-mail subscription of the demo agent.
    const emitted = await emitEvent(sandbox, { event_name: 'kyc_complete', data: { cardholderId: 'ch_1' } });
    expect(emitted.status).toBe(200);
    const entry = (await deliveries(sandbox)).find((e) => e.event_id === emitted.body.event_id);
    expect(entry).toMatchObject({
      channel: 'email',
      event_name: 'kyc_complete',
      from: 'notifications@sandbox.bankops.test',
      to: sandbox.credentials.userEmail,
      status: 'sent',
      attempts: 1,
    });
  });

  it('refuses to emit an event outside the catalog, and clears the log on reset', async () => {
    const res = await emitEvent(sandbox, { event_name: 'account.submitted' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 400 });
    expect(res.body.message).toContain('account.submitted');
    const badData = await emitEvent(sandbox, { event_name: 'kyc_complete', data: 'x' });
    expect(badData.status).toBe(400);
    expect(badData.body.message).toContain('data');

    await emitEvent(sandbox, { event_name: 'kyc_complete' });
    expect((await deliveries(sandbox)).length).toBeGreaterThan(0);
    await raw(sandbox, 'POST', '/_sandbox/reset');
    expect(await deliveries(sandbox)).toEqual([]);
  });
});
