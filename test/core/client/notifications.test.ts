import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/core/client/index.js';
import { ServiceError } from '../../../src/core/client/index.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: ServiceClient;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = clientFor(sandbox);
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});
beforeEach(() => sandbox.reset());

/** The subscription key of the sandbox's demo program, company, agent and sub-agent. */
const keyFor = (s: RunningSandbox, event_name: string) => ({
  event_name,
  agent_code: s.credentials.agentCode,
  subagent_code: s.credentials.subagentCode,
  program_code: s.credentials.programCode,
  company_code: s.credentials.companyId,
});

const HOOK_KEY = 'whk-secret-0123456789';

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('notifications client', () => {
  it('lists the 13 catalog events of the program', async () => {
    const events = await client.notifications.listEvents({ program_code: sandbox.credentials.programCode });
    expect(events).toHaveLength(13);
    expect(events.map((e) => e.event_name)).toContain('kyc_rfi_responded');
    expect(events[0]).toEqual({
      event_name: 'card_create',
      event_description: 'card creation',
      program_code: sandbox.credentials.programCode,
    });
  });

  it('lists the seeded e-mail subscriptions from the bare array answer', async () => {
    const c = sandbox.credentials;
    const subs = await client.notifications.listSubscriptions({
      program_code: c.programCode,
      agent_code: c.agentCode,
      subagent_code: c.subagentCode,
    });
    expect(subs.map((s) => [s.sl_no, s.event_name, s.subscription_type])).toEqual([
      [1, 'kyc_complete', 'n'],
      [2, 'm2p_transfer', 'n'],
    ]);
    expect(subs[0]?.company_code).toBe(c.companyId);
  });

  it('subscribes a webhook with x_api_key, updates it and unsubscribes', async () => {
    const c = sandbox.credentials;
    const key = keyFor(sandbox, 'card_create');
    const created = await client.notifications.subscribe({
      ...key,
      subscription_type: 'w',
      created_by: 'ops-bot',
      webhook_url: 'https://hooks.example.test/cards',
      x_api_key: HOOK_KEY,
    });
    expect(created.status.toLowerCase()).toBe('success');
    expect(created.message).toContain('card_create');

    const list = { program_code: c.programCode, agent_code: c.agentCode, subagent_code: c.subagentCode };
    const afterCreate = await client.notifications.listSubscriptions(list);
    const hook = afterCreate.find((s) => s.event_name === 'card_create');
    expect(hook).toMatchObject({
      subscription_type: 'w',
      webhook_url: 'https://hooks.example.test/cards',
      created_by: 'ops-bot',
    });
    // The key reached the service: the list shows its last four characters, masked.
    expect(hook?.x_api_key).toBe(`********${HOOK_KEY.slice(-4)}`);

    const updated = await client.notifications.updateSubscription({
      ...key,
      subscription_type: 'w',
      updated_by: 'ops-bot-2',
      webhook_url: 'https://hooks.example.test/cards-v2',
    });
    expect(updated.status.toLowerCase()).toBe('success');
    const afterUpdate = await client.notifications.listSubscriptions(list);
    expect(afterUpdate.find((s) => s.event_name === 'card_create')).toMatchObject({
      webhook_url: 'https://hooks.example.test/cards-v2',
      updated_by: 'ops-bot-2',
    });

    const removed = await client.notifications.unsubscribe(key);
    expect(removed.status.toLowerCase()).toBe('success');
    const afterDelete = await client.notifications.listSubscriptions(list);
    expect(afterDelete.some((s) => s.event_name === 'card_create')).toBe(false);
  });

  it('subscribes by e-mail without a webhook', async () => {
    const result = await client.notifications.subscribe({
      ...keyFor(sandbox, 'wallet_create'),
      subscription_type: 'n',
      created_by: 'ops-bot',
    });
    expect(result.status.toLowerCase()).toBe('success');
    const c = sandbox.credentials;
    const subs = await client.notifications.listSubscriptions({
      program_code: c.programCode,
      agent_code: c.agentCode,
      subagent_code: c.subagentCode,
    });
    expect(subs.find((s) => s.event_name === 'wallet_create')?.subscription_type).toBe('n');
  });

  it('refuses a webhook subscription without webhook_url or key before sending', async () => {
    const before = sandbox.stats()['notifications.subscribe'] ?? 0;
    const error = await rejection(
      client.notifications.subscribe({
        ...keyFor(sandbox, 'card_status'),
        subscription_type: 'w',
        created_by: 'ops-bot',
      } as never),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.issues.join('\n')).toMatch(/webhook_url/);
    expect(error.issues.join('\n')).toMatch(/x_api_key/);
    expect(sandbox.stats()['notifications.subscribe'] ?? 0).toBe(before);
  });

  it('surfaces the service refusing a duplicate subscription, without the hook key', async () => {
    const input = {
      ...keyFor(sandbox, 'kyc_complete'),
      subscription_type: 'w' as const,
      created_by: 'ops-bot',
      webhook_url: 'https://hooks.example.test/kyc',
      x_api_key: HOOK_KEY,
    };
    const error = await rejection(client.notifications.subscribe(input));
    expect(error).toMatchObject({
      kind: 'service',
      httpStatus: 400,
      operation: 'notifications.subscribe',
    });
    expect(error.serviceMessage).toMatch(/already exists/);
    expect(error.message).not.toContain(HOOK_KEY);
  });

  it('surfaces an unknown program on the bare-array endpoint as a service error', async () => {
    const c = sandbox.credentials;
    const error = await rejection(
      client.notifications.listSubscriptions({
        program_code: 'PRG-NOPE',
        agent_code: c.agentCode,
        subagent_code: c.subagentCode,
      }),
    );
    expect(error).toMatchObject({ kind: 'service', httpStatus: 400 });
    expect(error.serviceMessage).toContain('PRG-NOPE');
  });

  it('refuses to unsubscribe what does not exist', async () => {
    const error = await rejection(client.notifications.unsubscribe(keyFor(sandbox, 'p2p_transfer')));
    expect(error).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'notifications.unsubscribe' });
  });
});
