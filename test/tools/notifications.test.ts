import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/core/tool.js';
import { createSubscription, deleteSubscription } from '../../src/tools/notifications/subscriptions.js';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { emitEvent } from '../helpers/notifications.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let core: TestCore;
let receiver: WebhookReceiver;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(async () => {
  await core.close();
});
beforeEach(async () => {
  core.sandbox.reset();
  receiver = await startWebhookReceiver();
});
afterEach(() => receiver.close());

const HOOK_KEY = 'whk-live-7Qz93kfPa0Lx2mV8';

interface Subscription {
  event_name: string;
  subscription_type: string;
  webhook_url?: string | null;
  sender_email?: string | null;
  created_by?: string | null;
  updated_by?: string | null;
  sl_no?: number | null;
}

async function subscriptions(): Promise<Subscription[]> {
  return (await core.ok('list_subscriptions', {})).subscriptions as Subscription[];
}

async function subscription(event: string): Promise<Subscription | undefined> {
  return (await subscriptions()).find((s) => s.event_name === event);
}

describe('notification tools: catalog and listing', () => {
  it('list_webhook_events lists the 13 subscribable events of the configured program', async () => {
    const { events } = await core.ok('list_webhook_events', {});
    const names = (events as { event_name: string; event_description: string }[]).map((e) => e.event_name);
    expect(names).toHaveLength(13);
    expect(names).toEqual(expect.arrayContaining(['card_create', 'kyc_complete', 'p2p_transfer']));
    expect(events).toContainEqual(
      expect.objectContaining({ event_name: 'card_create', event_description: 'card creation' }),
    );
  });

  it('list_webhook_events passes on the refusal of an unknown program', async () => {
    const result = await core.call('list_webhook_events', { program_code: 'PRG-OTHER' });
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'notifications.listEvents' },
    });
    if (result.status === 'failed')
      expect(result.error.message).toContain("unknown program_code 'PRG-OTHER'");
  });

  it('list_subscriptions shows the seeded e-mail subscriptions of the configured agent', async () => {
    expect(await subscriptions()).toEqual([
      expect.objectContaining({
        sl_no: 1,
        event_name: 'kyc_complete',
        subscription_type: 'n',
        created_by: 'sandbox-seed',
      }),
      expect.objectContaining({ sl_no: 2, event_name: 'm2p_transfer', subscription_type: 'n' }),
    ]);
    const other = await core.ok('list_subscriptions', { agent_code: 'AGT-NOBODY' });
    expect(other.subscriptions).toEqual([]);
  });
});

describe('notification tools: subscribing', () => {
  it('create_subscription (webhook) delivers events to the URL with the key, recorded as the acting user', async () => {
    const created = await core.ok('create_subscription', {
      event_name: 'card_create',
      subscription_type: 'w',
      webhook_url: receiver.url,
      x_api_key: HOOK_KEY,
    });
    expect(created.status).toMatch(/^success$/i);
    expect(await subscription('card_create')).toMatchObject({
      subscription_type: 'w',
      webhook_url: receiver.url,
      created_by: 'cli:operator',
      sl_no: 3,
    });
    const emitted = await emitEvent(core.sandbox, { event_name: 'card_create', data: { cardId: 'card_x' } });
    expect(emitted.status).toBe(200);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.headers['x-api-key']).toBe(HOOK_KEY);
    expect(delivery?.body).toMatchObject({ event_name: 'card_create', agent_code: 'AGT-DEMO' });
  });

  it('list_subscriptions never hands out a webhook key, whatever the service returns', async () => {
    await core.ok('create_subscription', {
      event_name: 'card_activate',
      subscription_type: 'w',
      webhook_url: receiver.url,
      x_api_key: HOOK_KEY,
    });
    const listed = await core.ok('list_subscriptions', {});
    const records = listed.subscriptions as { event_name: string; x_api_key?: unknown }[];
    const record = records.find((r) => r.event_name === 'card_activate');
    expect(record?.x_api_key).toBe('[REDACTED]');
    expect(JSON.stringify(listed)).not.toContain(HOOK_KEY.slice(-4));
  });

  it('create_subscription (e-mail) keeps a whitelisted sender', async () => {
    await core.ok('create_subscription', {
      event_name: 'wallet_create',
      subscription_type: 'n',
      sender_email: 'treasury@demo.bankops.test',
    });
    expect(await subscription('wallet_create')).toMatchObject({
      subscription_type: 'n',
      sender_email: 'treasury@demo.bankops.test',
      webhook_url: null,
    });
  });

  it('create_subscription names the missing webhook fields of type w', async () => {
    const result = await core.call('create_subscription', {
      event_name: 'card_create',
      subscription_type: 'w',
    });
    expect(result.status).toBe('invalid');
    if (result.status !== 'invalid') return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(['webhook_url', 'x_api_key']);
    expect(await subscription('card_create')).toBeUndefined();
  });

  it('create_subscription passes on the refusal of a second subscription to one event', async () => {
    const result = await core.call('create_subscription', {
      event_name: 'kyc_complete',
      subscription_type: 'n',
    });
    expect(result).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'notifications.subscribe' },
    });
    if (result.status === 'failed') expect(result.error.message).toContain('already exists');
  });

  it('never puts the webhook key in a result or the audit log, on success or refusal', async () => {
    const before = (await core.audit.head()).seq;
    const ok = await core.call('create_subscription', {
      event_name: 'card_status',
      subscription_type: 'w',
      webhook_url: receiver.url,
      x_api_key: HOOK_KEY,
    });
    expect(ok.status).toBe('ok');
    const refused = await core.call('create_subscription', {
      event_name: 'account.submitted',
      subscription_type: 'w',
      webhook_url: receiver.url,
      x_api_key: HOOK_KEY,
    });
    expect(refused.status).toBe('failed');
    if (refused.status === 'failed') expect(refused.error.message).toContain('is not a subscribable event');
    const updateRefused = await core.call('update_subscription', {
      event_name: 'card_activate',
      subscription_type: 'w',
      webhook_url: receiver.url,
      x_api_key: HOOK_KEY,
    });
    expect(updateRefused.status).toBe('failed');
    const listed = await core.call('list_subscriptions', {});

    const entries = await core.audit.list({ afterSeq: before });
    expect(entries.length).toBeGreaterThanOrEqual(6);
    for (const text of [JSON.stringify(ok), JSON.stringify(refused), JSON.stringify(updateRefused)])
      expect(text).not.toContain(HOOK_KEY);
    expect(JSON.stringify(listed)).not.toContain(HOOK_KEY);
    expect(JSON.stringify(entries)).not.toContain(HOOK_KEY);
  });
});

describe('notification tools: changing and removing', () => {
  it('update_subscription switches an e-mail subscription to a webhook, recorded as the acting user', async () => {
    const result = await core.ok('update_subscription', {
      event_name: 'kyc_complete',
      subscription_type: 'w',
      webhook_url: receiver.url,
      x_api_key: HOOK_KEY,
    });
    expect(result.status).toMatch(/^success$/i);
    expect(await subscription('kyc_complete')).toMatchObject({
      sl_no: 1,
      subscription_type: 'w',
      webhook_url: receiver.url,
      sender_email: null,
      created_by: 'sandbox-seed',
      updated_by: 'cli:operator',
    });
  });

  it('update_subscription passes on the refusal to change a subscription that does not exist', async () => {
    const result = await core.call('update_subscription', {
      event_name: 'card_create',
      subscription_type: 'n',
    });
    expect(result).toMatchObject({ status: 'failed', error: { kind: 'service' } });
    if (result.status === 'failed') expect(result.error.message).toContain('no subscription');
  });

  it('update_subscription refuses a malformed webhook URL as a field error', async () => {
    const result = await core.call('update_subscription', {
      event_name: 'kyc_complete',
      subscription_type: 'w',
      webhook_url: 'ftp://example.test/hook',
    });
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid')
      expect(result.errors).toEqual([{ path: 'webhook_url', message: expect.stringContaining('http') }]);
  });

  it('delete_subscription is not run directly under the default policy: it needs an approver', async () => {
    const result = await core.call('delete_subscription', { event_name: 'kyc_complete' });
    expect(['denied', 'pending_approval']).toContain(result.status);
    expect(await subscription('kyc_complete')).toBeDefined();
  });
});

describe('notification tools: request ids', () => {
  const ctx = (requestId: string): ToolContext => ({
    client: core.client,
    defaults: {
      companyCode: 'CMP-DEMO',
      programCode: 'PRG-DEMO',
      agentCode: 'AGT-DEMO',
      subagentCode: 'SUB-DEMO',
    },
    actorName: 'cli:operator',
    requestId,
    once: (_key, produce) => produce(),
    progress: () => {},
  });

  it('create_subscription and delete_subscription send the execution request id, so a re-execution replays', async () => {
    const create = createSubscription.input.parse({ event_name: 'card_create', subscription_type: 'n' });
    const createId = randomUUID();
    await createSubscription.run(create, ctx(createId));
    // Without the same request id this second call would be refused as a duplicate subscription.
    await expect(createSubscription.run(create, ctx(createId))).resolves.toMatchObject({ status: 'success' });
    await expect(createSubscription.run(create, ctx(randomUUID()))).rejects.toThrow('already exists');

    const remove = deleteSubscription.input.parse({ event_name: 'card_create' });
    const deleteId = randomUUID();
    await deleteSubscription.run(remove, ctx(deleteId));
    // A reconciled approval re-sends the deletion: it must not fail because the first one worked.
    await expect(deleteSubscription.run(remove, ctx(deleteId))).resolves.toMatchObject({ status: 'success' });
    expect(await subscription('card_create')).toBeUndefined();
  });
});

// A policy that lets the operator delete without an approver, to see the deletion itself.
const NO_APPROVAL_POLICY = `
roles: [operator]
actors:
  - match: { cli: "*" }
    roles: [operator]
rules:
  - name: everything
    allow: [operator]
`;

describe('notification tools: deleting (no approval needed)', () => {
  let open: TestCore;
  beforeAll(async () => {
    open = await createTestCore({ policyYaml: NO_APPROVAL_POLICY });
  });
  afterAll(() => open.close());

  it('delete_subscription removes the subscription, and a second deletion is refused', async () => {
    const removed = await open.ok('delete_subscription', { event_name: 'm2p_transfer' });
    expect(removed.status).toMatch(/^success$/i);
    const left = (await open.ok('list_subscriptions', {})).subscriptions as Subscription[];
    expect(left.map((s) => s.event_name)).toEqual(['kyc_complete']);

    const again = await open.call('delete_subscription', { event_name: 'm2p_transfer' });
    expect(again).toMatchObject({ status: 'failed', error: { operation: 'notifications.unsubscribe' } });
    if (again.status === 'failed') expect(again.error.message).toContain('no subscription');
  });
});
