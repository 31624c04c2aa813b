import { headerSets, type RawResponse, type RunningSandbox, raw } from './sandbox.js';

/** Family B prefix with the only supported version. */
export const IB = '/issuing/api/v1';

/** The seeded demo data of docs/sandbox/issuing-b.md. */
export const SEED = {
  alice: {
    id: 'chb_demo_alice',
    email: 'alice.tan@cards.demo.bankops.test',
    wallet: 'wal_demo_alice_usd',
    balance: 18596.9,
    historyItems: 32,
    virtual: 'card_demo_alice_virtual',
    virtualItems: 22,
    locked: 'card_demo_alice_locked',
    physical: 'card_demo_alice_physical',
    stolen: 'card_demo_alice_stolen',
  },
  bruno: {
    id: 'chb_demo_bruno',
    email: 'bruno.silva@cards.demo.bankops.test',
    wallet: 'wal_demo_bruno_usd',
    balance: 850,
    virtual: 'card_demo_bruno_virtual',
  },
  chloe: {
    id: 'chb_demo_chloe',
    email: 'chloe.martin@cards.demo.bankops.test',
    wallet: 'wal_demo_chloe_usd',
    virtual: 'card_demo_chloe_virtual',
  },
  inventory: [
    { last4: '2468', code: 'K7Q2-9XMA' },
    { last4: '1357', code: 'P4W8-2ZRT' },
    { last4: '9753', code: 'H3N6-5LCE' },
    { last4: '8642', code: 'D9B1-7VGU' },
  ],
} as const;

export interface Ids {
  holder?: string;
  wallet?: string;
  card?: string;
  hash?: string;
}

/** The identity headers of family B for the given ids. */
export function idHeaders(ids: Ids): Record<string, string> {
  const out: Record<string, string> = {};
  if (ids.holder !== undefined) out['x-cardholder-id'] = ids.holder;
  if (ids.wallet !== undefined) out['x-wallet-id'] = ids.wallet;
  if (ids.card !== undefined) out['x-card-id'] = ids.card;
  if (ids.hash !== undefined) out['x-cardholderHash-id'] = ids.hash;
  return out;
}

export interface CallOptions {
  ids?: Ids;
  body?: unknown;
  /** Extra or overriding headers (`undefined` removes one). */
  headers?: Record<string, string | undefined>;
}

/** A family B request with HB2 headers (a new x-request-id each time) plus identity headers. */
export function ibCall(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<RawResponse> {
  return raw(sandbox, method, `${IB}${path}`, {
    headers: { ...headerSets(sandbox).HB2(), ...idHeaders(options.ids ?? {}), ...options.headers },
    ...(options.body === undefined ? {} : { body: options.body }),
  });
}

/** A POST to a control route of the area. */
export function ibControl(sandbox: RunningSandbox, path: string, body?: unknown): Promise<RawResponse> {
  return raw(sandbox, 'POST', `/_sandbox/issuing-b${path}`, {
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
}

/** A cardholder create body that passes every rule; override fields to break one. */
export function validCardholder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Mr',
    firstName: 'Daniel',
    lastName: 'Okafor',
    preferredName: 'DANIEL OKAFOR',
    gender: 'M',
    dateOfBirth: '1992-02-29',
    mobileCountryName: 'SG',
    mobileCountryCode: '65',
    mobile: '81234567',
    nationality: 'NG',
    email: `daniel.${Math.random().toString(36).slice(2, 10)}@example.com`,
    deliveryAddress1: 'Blk 123 (Tower A)',
    deliveryAddress2: '#05-12, Main St.',
    deliveryCity: 'Singapore',
    deliveryState: 'Singapore',
    deliveryCountry: 'SG',
    deliveryZipCode: '123456',
    billingAddress1: 'Blk 123 Tower A',
    billingAddress2: '#05-12 Main St.',
    billingCity: 'Singapore',
    billingState: 'Singapore',
    billingCountry: 'SG',
    billingZipCode: '123456',
    ...overrides,
  };
}

/** Agent headers POST /cardholder requires. */
export function agentHeaders(sandbox: RunningSandbox): Record<string, string> {
  return {
    'x-agent-code': sandbox.credentials.agentCode,
    'x-subagent-code': sandbox.credentials.subagentCode,
  };
}

/** Creates a cardholder, a USD wallet and a virtual card; returns their ids. */
export async function newCardSetup(
  sandbox: RunningSandbox,
  overrides: Record<string, unknown> = {},
): Promise<{ holder: string; wallet: string; card: string; email: string }> {
  const body = validCardholder(overrides);
  const ch = await ibCall(sandbox, 'POST', '/cardholder', { body, headers: agentHeaders(sandbox) });
  if (ch.status !== 200) throw new Error(`cardholder: ${JSON.stringify(ch.body)}`);
  const holder = ch.body.data[0].id as string;
  const w = await ibCall(sandbox, 'POST', '/wallet', { ids: { holder }, body: { currency: 'USD' } });
  if (w.status !== 200) throw new Error(`wallet: ${JSON.stringify(w.body)}`);
  const wallet = w.body.data[0].id as string;
  const c = await ibCall(sandbox, 'POST', '/card', {
    ids: { holder, wallet },
    body: { card_type: 'virtual' },
  });
  if (c.status !== 200) throw new Error(`card: ${JSON.stringify(c.body)}`);
  return { holder, wallet, card: c.body.data[0].cardId as string, email: body.email as string };
}
