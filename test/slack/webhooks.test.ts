import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/core/actors.js';
import { emitEvent } from '../helpers/notifications.js';
import { type SlackTest, startSlackTest, USERS } from '../helpers/slack-app.js';
import { textOf } from '../helpers/slack-requests.js';
import { type Passed, Tunnel } from '../helpers/tunnel.js';

let t: SlackTest;
let tunnel: Tunnel;

beforeAll(async () => {
  tunnel = await Tunnel.start();
  t = await startSlackTest({ publicUrl: tunnel.url });
  tunnel.target = t.serve.url;
});
afterAll(async () => {
  expect(t.api.problems).toEqual([]);
  await t?.close();
  await tunnel?.close();
});

async function ask(user: string, text: string, channel = 'C0OPS') {
  const { id } = await t.slack.command(user, text, { channel });
  const answers = await t.api.answers(id);
  return textOf(answers.at(-1)?.body ?? {});
}

const posts = (channel: string) =>
  t.api.callsOf('chat.postMessage').filter((c) => c.args.channel === channel);
const deliveriesOf = (event: string): Passed[] =>
  tunnel.passed.filter((p) => p.path === '/webhooks/service' && JSON.parse(p.body).event_name === event);

/** Every audit entry as exported, to look for what must never be there. */
async function auditText(): Promise<string> {
  const lines: string[] = [];
  await t.runtime.audit.exportJsonl((line) => lines.push(line));
  return lines.join('\n');
}

describe('service events in channels', () => {
  it('/bank subscribe <event>: the service posts to BANKOPS_PUBLIC_URL/webhooks/service with a key kept only as a digest', async () => {
    expect(await ask(USERS.operator, 'subscribe card_create')).toContain(
      '`card_create` events from the service now post to <#C0OPS>',
    );
    const listed = await t.runtime.executor.execute({
      tool: 'list_subscriptions',
      input: {},
      actor: cliActor('test'),
    });
    if (listed.status !== 'ok') throw new Error(JSON.stringify(listed));
    const records = listed.output.subscriptions as { event_name: string; webhook_url: string }[];
    const record = records.find((r) => r.event_name === 'card_create');
    expect(record?.webhook_url).toBe(`${tunnel.url}/webhooks/service`);
    // The key is made inside the tool: the request, its audit entry and any approval never hold it.
    const created = await t.runtime.audit.list({ tool: 'create_event_relay' });
    expect(created.at(-1)).toMatchObject({
      input: { event_name: 'card_create', channel: 'C0OPS' },
      outcome: 'ok',
    });
  });

  it('posts a delivery to the channel that subscribed; the same delivery again posts nothing; a wrong key is 401', async () => {
    const before = posts('C0OPS').length;
    const emitted = await emitEvent(t.sandbox, {
      event_name: 'card_create',
      data: { cardId: 'card_x1', last4: '4242' },
    });
    expect(emitted.status).toBe(200);
    const eventId = emitted.body.event_id as string;
    await t.api.waitFor(() => posts('C0OPS').length > before);
    const post = posts('C0OPS').at(-1);
    expect(textOf(post?.args ?? {})).toContain('card_create: card creation');
    expect(textOf(post?.args ?? {})).toContain(eventId);
    expect(textOf(post?.args ?? {})).toContain('card_x1');

    const [delivery] = deliveriesOf('card_create');
    expect(delivery?.status).toBe(200);
    if (delivery === undefined) return;
    const key = delivery.headers['x-api-key'] ?? '';
    const replay = await tunnel.send('/webhooks/service', delivery.headers, delivery.body);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ ok: true, repeat: true });

    const forged = await tunnel.send(
      '/webhooks/service',
      { ...delivery.headers, 'x-api-key': 'guessed-key-0001' },
      delivery.body,
    );
    expect(forged.status).toBe(401);
    const missing = await tunnel.send(
      '/webhooks/service',
      { 'content-type': 'application/json' },
      delivery.body,
    );
    expect(missing.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posts('C0OPS')).toHaveLength(before + 1);

    // Each delivery is audited with its event id and name, the refusals too; no key anywhere.
    const entries = await t.runtime.audit.list({ tool: 'service_event' });
    expect(entries.map((e) => [e.decision, (e.input as { eventId?: string }).eventId])).toEqual([
      ['allow', eventId],
      ['allow', eventId],
      ['deny', eventId],
      ['deny', eventId],
    ]);
    expect(entries[1]?.input).toMatchObject({ eventName: 'card_create', repeat: true });
    const audit = await auditText();
    expect(key.length).toBeGreaterThan(20);
    expect(audit).not.toContain(key);
    expect(audit).not.toContain('guessed-key-0001');
  });

  it('subscribe to a channel given as #channel updates an existing subscription; its key serves only its event', async () => {
    // kyc_complete is seeded as an e-mail subscription: bankops points it at the webhook instead.
    expect(await ask(USERS.operator, 'subscribe kyc_complete <#C0KYC|kyc>')).toContain(
      'now post to <#C0KYC>',
    );
    expect((await t.runtime.audit.tail(1)).map((e) => [e.tool, e.outcome])).toEqual([
      ['create_event_relay', 'ok'],
    ]);
    const listed = await t.runtime.executor.execute({
      tool: 'list_subscriptions',
      input: {},
      actor: cliActor('test'),
    });
    if (listed.status !== 'ok') throw new Error(JSON.stringify(listed));
    const records = listed.output.subscriptions as { event_name: string; subscription_type: string }[];
    expect(records.find((r) => r.event_name === 'kyc_complete')?.subscription_type).toBe('w');
    const [card] = deliveriesOf('card_create');
    const emitted = await emitEvent(t.sandbox, {
      event_name: 'kyc_complete',
      data: { cardholderId: 'cha_1' },
    });
    await t.api.waitFor(() => posts('C0KYC').length === 1);
    const [kyc] = deliveriesOf('kyc_complete');
    expect(kyc?.status).toBe(200);
    expect(JSON.parse(kyc?.body ?? '{}').event_id).toBe(emitted.body.event_id);
    // The kyc key presented with a card_create body: refused.
    if (card === undefined || kyc === undefined) return;
    const crossed = await tunnel.send(
      '/webhooks/service',
      { ...card.headers, 'x-api-key': kyc.headers['x-api-key'] ?? '' },
      card.body.replace(/evt_\w+/, 'evt_crossed'),
    );
    expect(crossed.status).toBe(401);
  });

  it('retries Slack later, in order, when it is rate limited', async () => {
    const [card] = deliveriesOf('card_create');
    if (card === undefined) throw new Error('no card_create delivery to copy');
    const before = posts('C0OPS').length;
    t.api.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const body = (n: number) =>
      JSON.stringify({ ...JSON.parse(card.body), event_id: `evt_order_${n}`, data: { n } });
    for (const n of [1, 2, 3]) {
      const response = await tunnel.send('/webhooks/service', card.headers, body(n));
      expect(response.status).toBe(200);
    }
    await t.api.waitFor(() => posts('C0OPS').length === before + 3, 8_000);
    const posted = posts('C0OPS')
      .slice(before)
      .map((c) => textOf(c.args).match(/evt_order_(\d)/)?.[1]);
    expect(posted).toEqual(['1', '2', '3']);
    const attempts = t.api
      .callsOf('chat.postMessage', true)
      .filter((c) => textOf(c.args).includes('evt_order_1'));
    expect(attempts).toHaveLength(2);
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it('/bank unsubscribe <event> waits for an approver (deleting a subscription silences it)', async () => {
    const text = await ask(USERS.operator, 'unsubscribe card_create');
    expect(text).toContain('Waiting for approval');
    expect(text).toContain('delete_subscription');
  });
});
