import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentHeaders,
  ibCall,
  ibControl,
  newCardSetup,
  SEED,
  validCardholder,
} from '../helpers/issuing-b.js';
import { headerSets, type RunningSandbox, raw, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** The catalog events family B emits; kyc_complete and m2p_transfer are subscribed in the seed. */
const EVENTS = [
  'cardholder_create',
  'cardholder_update',
  'wallet_create',
  'p2p_transfer',
  'card_create',
  'card_activate',
  'card_status',
  'card_configuration',
  'card_enroll3DS',
  'card_update3DSmethod',
  'kyc_rfi_responded',
];

async function subscribeByEmail(eventName: string): Promise<void> {
  const c = sandbox.credentials;
  const res = await raw(sandbox, 'POST', '/svc/api/v1/notification/subscribe', {
    headers: headerSets(sandbox).NOTIFY(),
    body: {
      event_name: eventName,
      subscription_type: 'n',
      agent_code: c.agentCode,
      subagent_code: c.subagentCode,
      program_code: c.programCode,
      company_code: c.companyId,
      created_by: 'issuing-b-test',
    },
  });
  if (res.status !== 200) throw new Error(`subscribe ${eventName}: ${JSON.stringify(res.body)}`);
}

describe('issuing B: events', () => {
  it('emits the catalog events its operations stand for, under the cardholder agent codes', async () => {
    sandbox.reset();
    for (const name of EVENTS) await subscribeByEmail(name);

    const { holder, wallet, card } = await newCardSetup(sandbox); // cardholder_create, wallet_create, card_create
    const ids = { holder, wallet, card };
    await ibCall(sandbox, 'PATCH', '/cardholder', { ids: { hash: holder }, body: { mobile: '87654321' } });
    await ibControl(sandbox, `/wallets/${wallet}/load`, { amount: 50 }); // m2p_transfer
    await ibCall(sandbox, 'POST', '/wallet/transfer', {
      ids: { holder },
      body: { email: SEED.alice.email, amount: 10, description: 'events' },
    });
    await ibCall(sandbox, 'PATCH', '/card/status/update', { ids, body: { status: 'INACTIVE' } });
    await ibCall(sandbox, 'POST', '/card/activate', { ids });
    await ibCall(sandbox, 'PATCH', '/card/configuration', {
      ids,
      body: { card_present_transaction_enabled: false },
    });
    await ibCall(sandbox, 'DELETE', '/card/3DS', { ids });
    await ibCall(sandbox, 'POST', '/card/3DS', { ids, body: { otp_delivery_method: 'EMAIL' } });
    await ibCall(sandbox, 'PATCH', '/card/3DS', { ids, body: { otp_delivery_method: 'SMS' } });
    await ibCall(sandbox, 'GET', '/kyc/rfi/respond', { ids: { hash: SEED.bruno.id } });
    await ibControl(sandbox, `/kyc/${SEED.bruno.id}/complete`);

    const log = await raw(sandbox, 'GET', '/_sandbox/notifications/deliveries');
    expect(log.status).toBe(200);
    const seen = new Set((log.body.deliveries as { event_name: string }[]).map((d) => d.event_name));
    for (const name of [...EVENTS, 'm2p_transfer', 'kyc_complete']) expect(seen.has(name), name).toBe(true);
  });

  it('emits nothing for a refused request', async () => {
    sandbox.reset();
    await subscribeByEmail('cardholder_create');
    const res = await ibCall(sandbox, 'POST', '/cardholder', {
      body: validCardholder({ lastName: 'TooLongLastName' }),
      headers: agentHeaders(sandbox),
    });
    expect(res.status).toBe(400);
    const log = await raw(sandbox, 'GET', '/_sandbox/notifications/deliveries');
    expect(log.body.deliveries).toEqual([]);
  });
});
