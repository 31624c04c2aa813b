import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notify, subscriptionKey } from '../helpers/notifications.js';
import { type RunningSandbox, raw, startTestSandbox } from '../helpers/sandbox.js';

const KEY = 'whsec-test-key-9f3a';
const DEFAULT_SENDER = 'notifications@sandbox.bankops.test';
const RECORD_FIELDS = [
  'event_name',
  'subscription_type',
  'agent_code',
  'subagent_code',
  'program_code',
  'company_code',
  'webhook_url',
  'sender_email',
  'x_api_key',
  'created_by',
  'updated_by',
  'created_time',
  'updated_time',
  'sl_no',
].sort();
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const webhookBody = (overrides: Record<string, unknown> = {}) => ({
  ...subscriptionKey(sandbox),
  subscription_type: 'w',
  created_by: 'ops@demo',
  webhook_url: 'https://hooks.example.test/bankops',
  x_api_key: KEY,
  ...overrides,
});

async function list(agent = sandbox.credentials.agentCode, subagent = sandbox.credentials.subagentCode) {
  const program = encodeURIComponent(sandbox.credentials.programCode);
  return notify(sandbox, 'POST', `/subscribedwebhook?program_code=${program}`, {
    agent_code: agent,
    subagent_code: subagent,
  });
}

async function recordFor(event: string, agent?: string, subagent?: string) {
  const res = await list(agent, subagent);
  expect(res.status).toBe(200);
  return (res.body as Record<string, unknown>[]).find((r) => r.event_name === event);
}

describe('notification event catalog', () => {
  it('lists exactly the 13 subscribable events of the program with their descriptions', async () => {
    const program = sandbox.credentials.programCode;
    const res = await notify(sandbox, 'GET', `/getallwebhooks?program_code=${program}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data).toHaveLength(13);
    const names = res.body.data.map((e: { event_name: string }) => e.event_name).sort();
    expect(names).toEqual(
      [
        'card_create',
        'card_activate',
        'card_status',
        'card_configuration',
        'card_enroll3DS',
        'card_update3DSmethod',
        'cardholder_create',
        'cardholder_update',
        'wallet_create',
        'p2p_transfer',
        'm2p_transfer',
        'kyc_complete',
        'kyc_rfi_responded',
      ].sort(),
    );
    expect(res.body.data).toContainEqual({
      event_description: 'card creation',
      event_name: 'card_create',
      program_code: program,
    });
    expect(res.body.data).toContainEqual({
      event_description: 'RFI responded',
      event_name: 'kyc_rfi_responded',
      program_code: program,
    });
    for (const e of res.body.data)
      expect(Object.keys(e).sort()).toEqual(['event_description', 'event_name', 'program_code']);
  });

  it('requires program_code and refuses another program', async () => {
    const missing = await notify(sandbox, 'GET', '/getallwebhooks');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 'error', code: 400 });
    expect(missing.body.message).toContain('program_code');
    const other = await notify(sandbox, 'GET', '/getallwebhooks?program_code=PRG-OTHER');
    expect(other.status).toBe(400);
    expect(other.body.message).toContain("unknown program_code 'PRG-OTHER'");
  });

  it('needs only x-api-key: missing is refused naming it (400), a wrong key is 401', async () => {
    const path = `/getallwebhooks?program_code=${sandbox.credentials.programCode}`;
    const missing = await notify(sandbox, 'GET', path, undefined, { 'x-api-key': undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('x-api-key');
    const wrong = await notify(sandbox, 'GET', path, undefined, { 'x-api-key': 'not-the-key' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ status: 'error', code: 401 });
    const unsubscribe = await notify(sandbox, 'DELETE', '/subscribe', subscriptionKey(sandbox), {
      'x-api-key': 'not-the-key',
    });
    expect(unsubscribe.status).toBe(401);
  });
});

describe('subscribe', () => {
  it('subscribes a webhook with the key spelled x_api_key and lists it with the key masked', async () => {
    const res = await notify(sandbox, 'POST', '/subscribe', webhookBody());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success' });
    expect(typeof res.body.message).toBe('string');
    const record = await recordFor('card_create');
    expect(record).toMatchObject({
      subscription_type: 'w',
      webhook_url: 'https://hooks.example.test/bankops',
      sender_email: null,
      x_api_key: '********9f3a',
      created_by: 'ops@demo',
      updated_by: null,
    });
  });

  it('accepts the key spelled x-api-key (the field list spelling)', async () => {
    const body: Record<string, unknown> = webhookBody({
      event_name: 'card_status',
      'x-api-key': 'other-key-00001234',
    });
    delete body.x_api_key;
    const res = await notify(sandbox, 'POST', '/subscribe', body);
    expect(res.status).toBe(200);
    expect((await recordFor('card_status'))?.x_api_key).toBe('********1234');
  });

  it('refuses a webhook without webhook_url or without the API key, naming the field and not echoing the key', async () => {
    const body: Record<string, unknown> = webhookBody();
    delete body.webhook_url;
    const noUrl = await notify(sandbox, 'POST', '/subscribe', body);
    expect(noUrl.status).toBe(400);
    expect(noUrl.body).toMatchObject({ status: 'error', code: 400 });
    expect(noUrl.body.message).toContain('webhook_url');
    expect(noUrl.body.message).not.toContain(KEY);

    const noKey: Record<string, unknown> = webhookBody();
    delete noKey.x_api_key;
    const res = await notify(sandbox, 'POST', '/subscribe', noKey);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('x_api_key');
    expect(await recordFor('card_create')).toBeUndefined();
  });

  it('refuses a webhook_url that is not an absolute http(s) URL, and a key that cannot be a header', async () => {
    for (const url of [
      '/relative/hook',
      'ftp://hooks.example.test/x',
      'https://user:pw@hooks.example.test/x',
    ]) {
      const res = await notify(sandbox, 'POST', '/subscribe', webhookBody({ webhook_url: url }));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('webhook_url');
    }
    const badKey = 'key with spaces 1234';
    const res = await notify(sandbox, 'POST', '/subscribe', webhookBody({ x_api_key: badKey }));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('x_api_key');
    expect(res.body.message).not.toContain(badKey);
  });

  it('subscribes e-mail notifications with a whitelisted sender, ignoring webhook fields', async () => {
    const res = await notify(sandbox, 'POST', '/subscribe', {
      ...subscriptionKey(sandbox, { event_name: 'wallet_create' }),
      subscription_type: 'n',
      created_by: 'ops@demo',
      sender_email: sandbox.credentials.userEmail,
      webhook_url: 'https://ignored.example.test',
      x_api_key: KEY,
    });
    expect(res.status).toBe(200);
    expect(res.body.message).not.toContain('not whitelisted');
    expect(await recordFor('wallet_create')).toMatchObject({
      subscription_type: 'n',
      sender_email: sandbox.credentials.userEmail,
      webhook_url: null,
      x_api_key: null,
    });
  });

  it('uses the default system sender when sender_email is not whitelisted, and says so', async () => {
    const res = await notify(sandbox, 'POST', '/subscribe', {
      ...subscriptionKey(sandbox, { event_name: 'p2p_transfer' }),
      subscription_type: 'n',
      created_by: 'ops@demo',
      sender_email: 'someone@elsewhere.test',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('not whitelisted');
    expect(res.body.message).toContain(DEFAULT_SENDER);
    expect((await recordFor('p2p_transfer'))?.sender_email).toBe(DEFAULT_SENDER);
  });

  it('refuses a second subscription with the same event, program, company, agent and sub-agent', async () => {
    expect((await notify(sandbox, 'POST', '/subscribe', webhookBody())).status).toBe(200);
    const dup = await notify(
      sandbox,
      'POST',
      '/subscribe',
      webhookBody({ webhook_url: 'https://b.example.test' }),
    );
    expect(dup.status).toBe(400);
    expect(dup.body.message).toContain('already exists');
    // Another sub-agent is another subscription.
    const other = await notify(sandbox, 'POST', '/subscribe', webhookBody({ subagent_code: 'SUB-OTHER' }));
    expect(other.status).toBe(200);
  });

  it('refuses event names outside the catalog, including the two seen only in records', async () => {
    for (const name of ['account.submitted', 'conversion.cancelled', 'card_created']) {
      const res = await notify(sandbox, 'POST', '/subscribe', webhookBody({ event_name: name }));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('event_name');
      expect(res.body.message).toContain(name);
    }
  });

  it('names every missing required field, a bad subscription_type and a foreign program or company', async () => {
    const empty = await notify(sandbox, 'POST', '/subscribe', {});
    expect(empty.status).toBe(400);
    for (const field of [
      'event_name',
      'subscription_type',
      'agent_code',
      'subagent_code',
      'program_code',
      'company_code',
      'created_by',
    ]) {
      expect(empty.body.message).toContain(`${field}: is required`);
    }
    const type = await notify(sandbox, 'POST', '/subscribe', webhookBody({ subscription_type: 'x' }));
    expect(type.body.message).toContain('subscription_type');
    const program = await notify(sandbox, 'POST', '/subscribe', webhookBody({ program_code: 'PRG-X' }));
    expect(program.status).toBe(400);
    expect(program.body.message).toContain('program_code');
    const company = await notify(sandbox, 'POST', '/subscribe', webhookBody({ company_code: 'CMP-X' }));
    expect(company.status).toBe(400);
    expect(company.body.message).toContain('company_code');
  });

  it('answers a repeated x-request-id with the first answer instead of a duplicate failure', async () => {
    const id = randomUUID();
    const first = await notify(sandbox, 'POST', '/subscribe', webhookBody(), { 'x-request-id': id });
    const again = await notify(sandbox, 'POST', '/subscribe', webhookBody(), { 'x-request-id': id });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const records = (await list()).body as { event_name: string }[];
    expect(records.filter((r) => r.event_name === 'card_create')).toHaveLength(1);
  });
});

describe('list subscriptions', () => {
  it('returns a bare array of full records with increasing sl_no, for one agent and sub-agent', async () => {
    await notify(sandbox, 'POST', '/subscribe', webhookBody());
    await notify(sandbox, 'POST', '/subscribe', webhookBody({ event_name: 'card_activate' }));
    await notify(sandbox, 'POST', '/subscribe', webhookBody({ agent_code: 'AGT-OTHER' }));
    const res = await list();
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const records = res.body as Record<string, unknown>[];
    // The two seeded e-mail subscriptions plus the two of this agent; not the other agent's.
    expect(records.map((r) => r.event_name)).toEqual([
      'kyc_complete',
      'm2p_transfer',
      'card_create',
      'card_activate',
    ]);
    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(RECORD_FIELDS);
      expect(r.created_time).toMatch(HTTP_DATE);
      expect(r.updated_time).toMatch(HTTP_DATE);
      expect(Number.isInteger(r.sl_no)).toBe(true);
    }
    const slNos = records.map((r) => r.sl_no as number);
    expect([...slNos].sort((a, b) => a - b)).toEqual(slNos);
    expect(new Set(slNos).size).toBe(slNos.length);
    expect(records[0]).toMatchObject({ subscription_type: 'n', sender_email: DEFAULT_SENDER, sl_no: 1 });

    const other = await list('AGT-OTHER');
    expect(other.body).toHaveLength(1);
    expect(await list('AGT-NOBODY')).toMatchObject({ status: 200, body: [] });
  });

  it('reports failures in the error envelope: missing program_code, agent_code or subagent_code', async () => {
    const noProgram = await notify(sandbox, 'POST', '/subscribedwebhook', {
      agent_code: 'A',
      subagent_code: 'B',
    });
    expect(noProgram.status).toBe(400);
    expect(noProgram.body).toMatchObject({ status: 'error', code: 400 });
    expect(noProgram.body.message).toContain('program_code');
    const program = sandbox.credentials.programCode;
    const noAgent = await notify(sandbox, 'POST', `/subscribedwebhook?program_code=${program}`, {});
    expect(noAgent.status).toBe(400);
    expect(noAgent.body.message).toContain('agent_code: is required');
    expect(noAgent.body.message).toContain('subagent_code: is required');
  });
});

describe('update subscription', () => {
  const update = (overrides: Record<string, unknown>) => ({
    ...subscriptionKey(sandbox),
    subscription_type: 'w',
    updated_by: 'lead@demo',
    ...overrides,
  });

  it('changes the URL keeping the stored key, and records updated_by and updated_time', async () => {
    await notify(sandbox, 'POST', '/subscribe', webhookBody());
    const res = await notify(
      sandbox,
      'PATCH',
      '/subscribe',
      update({ webhook_url: 'https://new.example.test/h' }),
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(await recordFor('card_create')).toMatchObject({
      webhook_url: 'https://new.example.test/h',
      x_api_key: '********9f3a',
      updated_by: 'lead@demo',
      created_by: 'ops@demo',
    });
  });

  it('switches between e-mail and webhook; a webhook needs a URL and a key unless already stored', async () => {
    const key = subscriptionKey(sandbox, { event_name: 'kyc_complete' });
    const noUrl = await notify(sandbox, 'PATCH', '/subscribe', update({ ...key }));
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.message).toContain('webhook_url');
    const noKey = await notify(
      sandbox,
      'PATCH',
      '/subscribe',
      update({ ...key, webhook_url: 'https://h.example.test' }),
    );
    expect(noKey.status).toBe(400);
    expect(noKey.body.message).toContain('x_api_key');
    const ok = await notify(
      sandbox,
      'PATCH',
      '/subscribe',
      update({ ...key, webhook_url: 'https://h.example.test/', 'x-api-key': 'switched-key-5678' }),
    );
    expect(ok.status).toBe(200);
    expect(await recordFor('kyc_complete')).toMatchObject({
      subscription_type: 'w',
      webhook_url: 'https://h.example.test/',
      x_api_key: '********5678',
      sender_email: null,
    });
    const back = await notify(sandbox, 'PATCH', '/subscribe', update({ ...key, subscription_type: 'n' }));
    expect(back.status).toBe(200);
    expect(await recordFor('kyc_complete')).toMatchObject({
      subscription_type: 'n',
      webhook_url: null,
      x_api_key: null,
      sender_email: DEFAULT_SENDER,
    });
  });

  it('refuses to update a subscription that does not exist, and requires updated_by', async () => {
    const missing = await notify(sandbox, 'PATCH', '/subscribe', update({ event_name: 'card_status' }));
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('no subscription');
    await notify(sandbox, 'POST', '/subscribe', webhookBody());
    const body: Record<string, unknown> = update({});
    delete body.updated_by;
    const noBy = await notify(sandbox, 'PATCH', '/subscribe', body);
    expect(noBy.status).toBe(400);
    expect(noBy.body.message).toContain('updated_by: is required');
  });
});

describe('unsubscribe', () => {
  it('deletes a subscription; deleting it again is refused', async () => {
    await notify(sandbox, 'POST', '/subscribe', webhookBody());
    const res = await notify(sandbox, 'DELETE', '/subscribe', subscriptionKey(sandbox));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(await recordFor('card_create')).toBeUndefined();
    const again = await notify(sandbox, 'DELETE', '/subscribe', subscriptionKey(sandbox));
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ status: 'error', code: 400 });
    expect(again.body.message).toContain('no subscription');
  });

  it('needs Content-Type with a body only: a GET may leave it out (x-api-key is the one R header)', async () => {
    const program = sandbox.credentials.programCode;
    const bare = await raw(
      sandbox,
      'GET',
      `/svc/api/v1/notification/getallwebhooks?program_code=${program}`,
      {
        headers: { 'x-api-key': sandbox.credentials.apiKey },
      },
    );
    expect(bare.status).toBe(200);
    const wrong = await raw(
      sandbox,
      'GET',
      `/svc/api/v1/notification/getallwebhooks?program_code=${program}`,
      {
        headers: { 'x-api-key': sandbox.credentials.apiKey, 'content-type': 'text/plain' },
      },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Content-Type must be application/json');
    const posted = await raw(sandbox, 'POST', '/svc/api/v1/notification/subscribe', {
      headers: { 'x-api-key': sandbox.credentials.apiKey },
      body: subscriptionKey(sandbox),
    });
    // fetch labels a string body text/plain: refused all the same.
    expect(posted.status).toBe(400);
    expect(posted.body.message).toMatch(/Content-Type/);
  });

  it('requires the five key fields', async () => {
    const res = await raw(sandbox, 'DELETE', '/svc/api/v1/notification/subscribe', {
      headers: { 'content-type': 'application/json', 'x-api-key': sandbox.credentials.apiKey },
      body: { event_name: 'card_create' },
    });
    expect(res.status).toBe(400);
    for (const field of ['agent_code', 'subagent_code', 'program_code', 'company_code']) {
      expect(res.body.message).toContain(field);
    }
  });
});
