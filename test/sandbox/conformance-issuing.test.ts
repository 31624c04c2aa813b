/**
 * Black-box conformance tests for the issuing area (family A and family B), written from the
 * service-interface spec and the credentials / common rules / control surface / seeded data parts of
 * docs/sandbox.md only. Plain HTTP, no client.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  advanceClock,
  headerSets,
  type RawResponse,
  type RunningSandbox,
  raw,
  startTestSandbox,
  tokenFor,
} from '../helpers/sandbox.js';

type Obj = Record<string, unknown>;
type Headers = Record<string, string | undefined>;

const A = '/svc/issuing/api/v1';
const B = '/issuing/api/v1';

let sb: RunningSandbox;
let h: ReturnType<typeof headerSets>;
let token: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  h = headerSets(sb);
});

afterAll(async () => {
  await sb.close();
});

beforeEach(async () => {
  sb.reset();
  token = await tokenFor(sb);
});

// ---------------------------------------------------------------------------------------------
// helpers

const DELETE = Symbol('delete');

/** A deep copy of `obj` with the dotted `path` set to `value` (or removed). */
function withPath(obj: Obj, path: string, value: unknown): Obj {
  const copy = structuredClone(obj);
  const keys = path.split('.');
  let cur: Obj = copy;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Obj;
  const last = keys[keys.length - 1] as string;
  if (value === DELETE) delete cur[last];
  else cur[last] = value;
  return copy;
}

function uniqueEmail(tag: string): string {
  return `qa.${tag}.${randomUUID().slice(0, 8)}@example.com`;
}

function expectError(res: RawResponse, code = 400): void {
  expect(res.status, JSON.stringify(res.body)).toBe(code);
  expect(res.body.status).toBe('error');
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
}

function expectSuccess(res: RawResponse, code = 200): void {
  expect(res.status, JSON.stringify(res.body)).toBe(code);
  expect(typeof res.body.status).toBe('string');
  expect(res.body.status.toLowerCase()).toBe('success');
  expect(typeof res.body.message).toBe('string');
  expect(Number.isInteger(res.body.code)).toBe(true);
  expect(res.body.code).toBe(code);
}

async function sandboxNow(): Promise<Date> {
  const res = await raw(sb, 'GET', '/_sandbox/clock');
  return new Date(res.body.now as string);
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function yearsBefore(d: Date, years: number, plusDays = 0): string {
  const x = new Date(Date.UTC(d.getUTCFullYear() - years, d.getUTCMonth(), d.getUTCDate() + plusDays));
  return isoDate(x);
}

const TS_SPACE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const TS_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;

// ---------- family A

function HA(extra: Headers = {}): Headers {
  return { ...h.HB(token), ...extra };
}

function HAcreate(extra: Headers = {}): Headers {
  return HA({
    'agent-code': sb.credentials.agentCode,
    'subagent-code': sb.credentials.subagentCode,
    ...extra,
  });
}

function cardholderA(over: Obj = {}): Obj {
  return {
    email: uniqueEmail('a'),
    mobile_number: '91234567',
    country_code: 'SG',
    individual: {
      date_of_birth: '1990-05-17',
      name: { first_name: 'Daniel', last_name: 'Lim' },
      address: {
        city: 'Singapore',
        country: 'SG',
        line1: '1 Raffles Place',
        line2: 'Level 20',
        state: 'Singapore',
        postcode: '048616',
      },
    },
    type: 'INDIVIDUAL',
    created_by: 'qa',
    ...over,
  };
}

function cardA(over: Obj = {}): Obj {
  return {
    card_type: 'VIRTUAL',
    card_holder_id: 'cha_demo_chloe',
    created_by: 'qa',
    request_id: randomUUID(),
    program: { purpose: 'COMMERCIAL' },
    authorization_controls: {
      allowed_transaction_count: 'MULTIPLE',
      transaction_limits: { currency: 'USD', limits: [{ amount: 500, interval: 'PER_TRANSACTION' }] },
    },
    is_personalized: false,
    ...over,
  };
}

function assignA(over: Obj = {}): Obj {
  return {
    cardholder_id: 'cha_demo_chloe',
    card_number: '5300001000000012',
    card_currency: 'USD',
    card_mode: 'SINGLE',
    createdBy: 'qa',
    ...over,
  };
}

async function createCardholderA(body: Obj = cardholderA()): Promise<string> {
  const res = await raw(sb, 'POST', `${A}/card/cardholder`, { headers: HAcreate(), body });
  expectSuccess(res, 201);
  return res.body.data[0].id as string;
}

async function getCardholderA(id: string): Promise<Obj> {
  const res = await raw(sb, 'GET', `${A}/card/cardholder?id=${encodeURIComponent(id)}`, { headers: HA() });
  expectSuccess(res);
  return res.body.data[0] as Obj;
}

// ---------- family B

function HB2(extra: Headers = {}): Headers {
  return { ...h.HB2(), ...extra };
}

const ALICE = {
  'x-cardholder-id': 'chb_demo_alice',
  'x-wallet-id': 'wal_demo_alice_usd',
  'x-card-id': 'card_demo_alice_virtual',
};

/** Documented choice: 3DS `destination` is the cardholder's full registered e-mail (EMAIL). */
const ALICE_EMAIL = 'alice.tan@cards.demo.bankops.test';

function aliceCard(card: string): Headers {
  return HB2({ ...ALICE, 'x-card-id': card });
}

function cardholderB(over: Obj = {}): Obj {
  return {
    title: 'Mr',
    firstName: 'John',
    lastName: 'Smith',
    preferredName: 'JOHN SMITH',
    gender: 'M',
    dateOfBirth: '1988-02-29',
    mobileCountryName: 'SG',
    mobileCountryCode: '65',
    mobile: '91234567',
    nationality: 'SG',
    email: uniqueEmail('b'),
    deliveryAddress1: '10 Anson Road',
    deliveryAddress2: '#10-01 Tower (East)',
    deliveryCity: 'Singapore',
    deliveryState: 'Singapore',
    deliveryCountry: 'SG',
    deliveryZipCode: '079903',
    billingAddress1: '10 Anson Road',
    billingAddress2: '#10-01 Tower',
    billingCity: 'Singapore',
    billingState: 'Singapore',
    billingCountry: 'SG',
    billingZipCode: '079903',
    ...over,
  };
}

function HBcreateCardholder(extra: Headers = {}): Headers {
  return HB2({
    'x-agent-code': sb.credentials.agentCode,
    'x-subagent-code': sb.credentials.subagentCode,
    ...extra,
  });
}

async function createCardholderB(body: Obj = cardholderB()): Promise<string> {
  const res = await raw(sb, 'POST', `${B}/cardholder`, { headers: HBcreateCardholder(), body });
  expectSuccess(res);
  return res.body.data[0].id as string;
}

async function getCardholderB(id: string): Promise<Obj> {
  const res = await raw(sb, 'GET', `${B}/cardholder`, { headers: HB2({ 'x-cardholderHash-id': id }) });
  expectSuccess(res);
  return res.body.data[0] as Obj;
}

async function walletsB(cardholder: string): Promise<Obj[]> {
  const res = await raw(sb, 'GET', `${B}/wallet`, { headers: HB2({ 'x-cardholder-id': cardholder }) });
  expectSuccess(res);
  return res.body.data as Obj[];
}

async function cardDetailsB(card: string, headers: Headers = aliceCard(card)): Promise<Obj> {
  const res = await raw(sb, 'GET', `${B}/card/details`, { headers });
  expectSuccess(res);
  return res.body.data[0] as Obj;
}

async function limitsB(headers: Headers): Promise<Obj[]> {
  const res = await raw(sb, 'GET', `${B}/card/limit`, { headers });
  expectSuccess(res);
  return res.body.data as Obj[];
}

async function setStatusB(card: string, status: string): Promise<RawResponse> {
  return raw(sb, 'PATCH', `${B}/card/status/update`, { headers: aliceCard(card), body: { status } });
}

async function listCardsB(headers: Headers, query = '?page=1&size=100'): Promise<Obj> {
  const res = await raw(sb, 'GET', `${B}/card/list${query}`, { headers });
  expectSuccess(res);
  return res.body.data[0] as Obj;
}

const DEFAULT_LIMITS: [string, string, number][] = [
  ['PURCHASE', 'TRANSACTION', 250_000],
  ['PURCHASE', 'DAY', 500_000],
  ['PURCHASE', 'MONTH', 2_000_000],
  ['PURCHASE', 'YEAR', 10_000_000],
  ['ATM_CASH_WITHDRAWAL', 'TRANSACTION', 1_500],
  ['ATM_CASH_WITHDRAWAL', 'DAY', 3_000],
  ['ATM_CASH_WITHDRAWAL', 'MONTH', 15_000],
  ['ATM_CASH_WITHDRAWAL', 'YEAR', 50_000],
];

function expectDefaultLimits(items: Obj[]): void {
  for (const [type, period, amount] of DEFAULT_LIMITS) {
    const item = items.find((i) => i.transaction_type === type && i.amount_limit_period === period);
    expect(item, `${type} ${period}`).toBeDefined();
    expect(Number(item?.amount_limit)).toBe(amount);
    expect(item?.currency_code).toBe('USD');
    expect(item?.active).toBe(true);
  }
}

function expectWalletShape(w: Obj): void {
  expect(typeof w.id).toBe('string');
  expect(typeof w.currency).toBe('string');
  for (const f of [
    'amount',
    'holdingAmount',
    'dailyLimitAmount',
    'weeklyLimitAmount',
    'monthlyLimitAmount',
    'yearlyLimitAmount',
    'totalLimitAmount',
  ]) {
    expect(typeof w[f], f).toBe('number');
  }
  expect(typeof w.holdingCurrency).toBe('string');
  expect(w.status).toBe('ACTIVE');
  expect(typeof w.createdAt).toBe('string');
  // "timestamp without zone"
  expect(w.createdAt as string).toMatch(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?$/);
}

function expectHistoryItemShape(t: Obj): void {
  expect(Number.isInteger(t.genericSlNo)).toBe(true);
  for (const f of [
    'slNo',
    'wallet_id',
    'programCode',
    'txn_currency',
    'txn_amount',
    'available_amount',
    'available_currency',
    'acquirer_amount',
    'acquirer_currency',
    'txn_type',
    'txn_direction',
    'txn_ref_id',
    'txn_email',
    'txn_description',
    'txn_status',
    'card_acceptor_name',
    'card_id',
    'initiated_by',
    'settle_amount',
    'settle_currency',
    'billing_amount',
    'billing_currency',
    'initiatedAt',
    'updatedAt',
  ]) {
    expect(t, f).toHaveProperty(f);
  }
  expect(typeof t.acquirer_amount).toBe('string');
  expect(t.initiatedAt as string).toMatch(TS_LOCAL);
  if (t.updatedAt !== null) expect(t.updatedAt as string).toMatch(TS_LOCAL);
}

function expectKycView(k: Obj): void {
  for (const f of ['kycStatus', 'kycLink', 'documentType', 'complianceStatus', 'email']) {
    expect(k, f).toHaveProperty(f);
  }
  expect(['COMPLETED', 'PENDING']).toContain(k.kycStatus);
  expect(['COMPLETED', 'IN_PROGRESS']).toContain(k.complianceStatus);
}

// =============================================================================================
// Family A
// =============================================================================================

describe('family A: POST /card/cardholder', () => {
  it('creates a cardholder: 201, data = [{id}], readable by id with the documented fields', async () => {
    const body = cardholderA();
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, { headers: HAcreate(), body });
    expectSuccess(res, 201);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data).toHaveLength(1);
    const id = res.body.data[0].id;
    expect(typeof id).toBe('string');

    const ch = await getCardholderA(id);
    expect(ch.id).toBe(id);
    expect(ch.email).toBe(body.email);
    expect(ch.mobile_number).toBe('91234567');
    expect(ch.country_code).toBe('SG');
    expect(ch.type).toBe('INDIVIDUAL');
    expect(ch).toHaveProperty('kyc_status');
    expect(ch).toHaveProperty('status');
    expect(ch).toHaveProperty('review_status');
    expect(ch.created_at as string).toMatch(TS_SPACE);
    const postal = ch.postal_address as Obj;
    for (const f of ['line1', 'line2', 'city', 'state', 'country', 'postcode'])
      expect(postal).toHaveProperty(f);
    const ind = ch.individual as Obj;
    expect(ind.date_of_birth).toBe('1990-05-17');
    expect(ind).toHaveProperty('employers');
    const addr = ind.address as Obj;
    expect(addr.line1).toBe('1 Raffles Place');
    expect(addr.city).toBe('Singapore');
    expect(addr.country).toBe('SG');
    expect(addr.postcode).toBe('048616');
    const name = ind.name as Obj;
    for (const f of ['title', 'first_name', 'middle_name', 'last_name', 'name_on_card']) {
      expect(name).toHaveProperty(f);
    }
    expect(name.first_name).toBe('Daniel');
    expect(name.last_name).toBe('Lim');
  });

  it('country_code defaults to the country of the individual', async () => {
    const body = cardholderA();
    delete body.country_code;
    const id = await createCardholderA(withPath(body, 'individual.address.country', 'GB'));
    const ch = await getCardholderA(id);
    expect(ch.country_code).toBe('GB');
  });

  it('line2 is optional', async () => {
    await createCardholderA(withPath(cardholderA(), 'individual.address.line2', DELETE));
  });

  const required = [
    'email',
    'mobile_number',
    'individual',
    'individual.date_of_birth',
    'individual.name',
    'individual.name.first_name',
    'individual.name.last_name',
    'individual.address',
    'individual.address.city',
    'individual.address.country',
    'individual.address.line1',
    'individual.address.state',
    'individual.address.postcode',
    'type',
    'created_by',
  ];
  for (const path of required) {
    it(`rejects a missing required field: ${path}`, async () => {
      const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
        headers: HAcreate(),
        body: withPath(cardholderA(), path, DELETE),
      });
      expectError(res);
    });
  }

  const invalid: [string, string, unknown][] = [
    ['type other than INDIVIDUAL', 'type', 'COMPANY'],
    ['non-English first name', 'individual.name.first_name', 'Zoë'],
    ['non-English last name', 'individual.name.last_name', '李'],
    ['3-letter address country', 'individual.address.country', 'SGP'],
    ['date_of_birth not YYYY-MM-DD', 'individual.date_of_birth', '17/05/1990'],
    ['mobile number with a plus sign', 'mobile_number', '+6591234567'],
  ];
  for (const [label, path, value] of invalid) {
    it(`rejects ${label}`, async () => {
      const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
        headers: HAcreate(),
        body: withPath(cardholderA(), path, value),
      });
      expectError(res);
    });
  }

  it('age: exactly 18 today is accepted, one day short of 18 is refused', async () => {
    const now = await sandboxNow();
    await createCardholderA(withPath(cardholderA(), 'individual.date_of_birth', yearsBefore(now, 18)));
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: HAcreate(),
      body: withPath(cardholderA(), 'individual.date_of_birth', yearsBefore(now, 18, 1)),
    });
    expectError(res);
  });

  it('age: 79 is accepted, 80 today is refused', async () => {
    const now = await sandboxNow();
    await createCardholderA(withPath(cardholderA(), 'individual.date_of_birth', yearsBefore(now, 80, 1)));
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: HAcreate(),
      body: withPath(cardholderA(), 'individual.date_of_birth', yearsBefore(now, 80)),
    });
    expectError(res);
    const older = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: HAcreate(),
      body: withPath(cardholderA(), 'individual.date_of_birth', yearsBefore(now, 85)),
    });
    expectError(older);
  });

  for (const header of [
    'x-api-key',
    'x-product-id',
    'x-request-id',
    'x-user-id',
    'content-type',
    'agent-code',
    'subagent-code',
  ]) {
    it(`rejects a request without ${header} (400)`, async () => {
      const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
        headers: { ...HAcreate(), [header]: undefined },
        body: cardholderA(),
      });
      expectError(res);
    });
  }

  it('rejects a request without Authorization (400 naming the missing header)', async () => {
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: { ...HAcreate(), authorization: undefined },
      body: cardholderA(),
    });
    expectError(res);
    expect(res.body.message).toContain('Authorization');
  });

  it('rejects an invalid bearer token (documented: 401)', async () => {
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: { ...HAcreate(), authorization: 'Bearer not-a-jwt' },
      body: cardholderA(),
    });
    expectError(res, 401);
  });

  it('rejects a wrong x-api-key (documented: 401)', async () => {
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: { ...HAcreate(), 'x-api-key': 'wrong' },
      body: cardholderA(),
    });
    expectError(res, 401);
  });

  it('x-request-id is an idempotency key: the same request twice creates one cardholder', async () => {
    const headers = HAcreate();
    const body = cardholderA();
    const first = await raw(sb, 'POST', `${A}/card/cardholder`, { headers, body });
    expectSuccess(first, 201);
    const second = await raw(sb, 'POST', `${A}/card/cardholder`, { headers, body });
    expect(second.status).toBe(201);
    expect(second.body.data[0].id).toBe(first.body.data[0].id);
    const byEmail = await raw(
      sb,
      'GET',
      `${A}/card/cardholder?email=${encodeURIComponent(body.email as string)}`,
      {
        headers: HA(),
      },
    );
    expectSuccess(byEmail);
    expect(byEmail.body.data).toHaveLength(1);
  });

  it('a new x-request-id with a new body creates a different cardholder', async () => {
    const a = await createCardholderA();
    const b = await createCardholderA();
    expect(a).not.toBe(b);
  });
});

describe('family A: GET /card/cardholder', () => {
  it('lists cardholders with totalcount and an array of cardholders', async () => {
    const res = await raw(sb, 'GET', `${A}/card/cardholder`, { headers: HA() });
    expectSuccess(res);
    expect(Number.isInteger(res.body.totalcount)).toBe(true);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.totalcount).toBeGreaterThanOrEqual(3);
    const ids = (res.body.data as Obj[]).map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['cha_demo_ava', 'cha_demo_ben', 'cha_demo_chloe']));
  });

  it('filters by status', async () => {
    for (const [status, id] of [
      ['SUCCESS', 'cha_demo_ava'],
      ['PENDING', 'cha_demo_ben'],
      ['INCOMPLETE', 'cha_demo_chloe'],
    ] as const) {
      const res = await raw(sb, 'GET', `${A}/card/cardholder?status=${status}`, { headers: HA() });
      expectSuccess(res);
      const data = res.body.data as Obj[];
      expect(data.map((c) => c.id)).toContain(id);
      for (const c of data) expect(c.status).toBe(status);
      expect(res.body.totalcount).toBe(data.length);
    }
    const failed = await raw(sb, 'GET', `${A}/card/cardholder?status=FAILED`, { headers: HA() });
    expectSuccess(failed);
    expect(failed.body.data).toEqual([]);
    expect(failed.body.totalcount).toBe(0);
  });

  it('rejects an unknown status filter', async () => {
    const res = await raw(sb, 'GET', `${A}/card/cardholder?status=WHATEVER`, { headers: HA() });
    expectError(res);
  });

  it('pages with page_num and page_size; totalcount is the total', async () => {
    const all = await raw(sb, 'GET', `${A}/card/cardholder?page_num=1&page_size=100`, { headers: HA() });
    const total = all.body.totalcount as number;
    const p1 = await raw(sb, 'GET', `${A}/card/cardholder?page_num=1&page_size=2`, { headers: HA() });
    expectSuccess(p1);
    expect(p1.body.data).toHaveLength(2);
    expect(p1.body.totalcount).toBe(total);
    const p2 = await raw(sb, 'GET', `${A}/card/cardholder?page_num=2&page_size=2`, { headers: HA() });
    expectSuccess(p2);
    expect(p2.body.data.length).toBe(Math.min(2, total - 2));
    const ids1 = (p1.body.data as Obj[]).map((c) => c.id);
    for (const c of p2.body.data as Obj[]) expect(ids1).not.toContain(c.id);
  });

  it('gets one cardholder by id and by email (data is an array)', async () => {
    const byId = await raw(sb, 'GET', `${A}/card/cardholder?id=cha_demo_ava`, { headers: HA() });
    expectSuccess(byId);
    expect(byId.body.data).toHaveLength(1);
    expect(byId.body.data[0].id).toBe('cha_demo_ava');
    expect(byId.body.data[0].email).toBe('ava.tan@demo.bankops.test');
    expect(byId.body.data[0].status).toBe('SUCCESS');
    expect(byId.body.data[0].kyc_status).toBe('COMPLETED');
    const byEmail = await raw(sb, 'GET', `${A}/card/cardholder?email=ben.okafor@demo.bankops.test`, {
      headers: HA(),
    });
    expectSuccess(byEmail);
    expect(byEmail.body.data).toHaveLength(1);
    expect(byEmail.body.data[0].id).toBe('cha_demo_ben');
  });

  it('seeded cardholder: Chloe has kyc_status null; Ben has a middle name', async () => {
    const chloe = await getCardholderA('cha_demo_chloe');
    expect(chloe.kyc_status).toBeNull();
    const ben = await getCardholderA('cha_demo_ben');
    expect(((ben.individual as Obj).name as Obj).middle_name).toBe('Chidi');
  });

  it('rejects an unknown id (400)', async () => {
    const res = await raw(sb, 'GET', `${A}/card/cardholder?id=cha_nope`, { headers: HA() });
    expectError(res);
  });

  for (const header of ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id']) {
    it(`rejects a list without ${header}`, async () => {
      const res = await raw(sb, 'GET', `${A}/card/cardholder`, { headers: { ...HA(), [header]: undefined } });
      expectError(res);
    });
  }

  it('rejects a list without Authorization (400 naming the missing header)', async () => {
    const res = await raw(sb, 'GET', `${A}/card/cardholder`, {
      headers: { ...HA(), authorization: undefined },
    });
    expectError(res);
    expect(res.body.message).toContain('Authorization');
  });

  it('a GET without Content-Type is refused (Content-Type is in every header set)', async () => {
    const res = await raw(sb, 'GET', `${A}/card/cardholder`, {
      headers: { ...HA(), 'content-type': undefined },
    });
    expectError(res);
    expect(res.body.message).toContain('Content-Type');
  });
});

describe('family A: PATCH /card/cardholder', () => {
  it('updates mobile_number and country_code together: 200 without data', async () => {
    const id = await createCardholderA();
    const res = await raw(sb, 'PATCH', `${A}/card/cardholder?id=${id}`, {
      headers: HA(),
      body: { mobile_number: '87654321', country_code: 'MY', updated_by: 'qa' },
    });
    expectSuccess(res);
    expect(res.body).not.toHaveProperty('data');
    const ch = await getCardholderA(id);
    expect(ch.mobile_number).toBe('87654321');
    expect(ch.country_code).toBe('MY');
    // only supplied fields change
    expect(((ch.individual as Obj).address as Obj).line1).toBe('1 Raffles Place');
  });

  it('rejects mobile_number without country_code and the reverse', async () => {
    const id = await createCardholderA();
    const r1 = await raw(sb, 'PATCH', `${A}/card/cardholder?id=${id}`, {
      headers: HA(),
      body: { mobile_number: '87654321', updated_by: 'qa' },
    });
    expectError(r1);
    const r2 = await raw(sb, 'PATCH', `${A}/card/cardholder?id=${id}`, {
      headers: HA(),
      body: { country_code: 'MY', updated_by: 'qa' },
    });
    expectError(r2);
    const ch = await getCardholderA(id);
    expect(ch.mobile_number).toBe('91234567');
    expect(ch.country_code).toBe('SG');
  });

  it('updates the address (line2 optional)', async () => {
    const id = await createCardholderA();
    const address = {
      city: 'London',
      country: 'GB',
      line1: '1 King St',
      state: 'London',
      postcode: 'EC2V 8AU',
    };
    const res = await raw(sb, 'PATCH', `${A}/card/cardholder?id=${id}`, {
      headers: HA(),
      body: { individual: { address }, updated_by: 'qa' },
    });
    expectSuccess(res);
    const ch = await getCardholderA(id);
    const addr = (ch.individual as Obj).address as Obj;
    expect(addr.city).toBe('London');
    expect(addr.line1).toBe('1 King St');
    expect(addr.postcode).toBe('EC2V 8AU');
    expect(ch.mobile_number).toBe('91234567');
  });

  for (const missing of ['city', 'country', 'line1', 'state', 'postcode']) {
    it(`rejects an address without ${missing}`, async () => {
      const address: Obj = {
        city: 'London',
        country: 'GB',
        line1: '1 King St',
        state: 'London',
        postcode: 'EC2V',
      };
      delete address[missing];
      const res = await raw(sb, 'PATCH', `${A}/card/cardholder?id=cha_demo_chloe`, {
        headers: HA(),
        body: { individual: { address }, updated_by: 'qa' },
      });
      expectError(res);
    });
  }

  it('rejects a partial name (a composite object needs all its child fields)', async () => {
    const res = await raw(sb, 'PATCH', `${A}/card/cardholder?id=cha_demo_chloe`, {
      headers: HA(),
      body: { individual: { name: { first_name: 'Chloé' } }, updated_by: 'qa' },
    });
    expectError(res);
  });

  it('rejects an update without updated_by', async () => {
    const res = await raw(sb, 'PATCH', `${A}/card/cardholder?id=cha_demo_chloe`, {
      headers: HA(),
      body: { mobile_number: '87654321', country_code: 'US' },
    });
    expectError(res);
  });

  it('rejects an unknown id', async () => {
    const res = await raw(sb, 'PATCH', `${A}/card/cardholder?id=cha_nope`, {
      headers: HA(),
      body: { mobile_number: '87654321', country_code: 'US', updated_by: 'qa' },
    });
    expectError(res);
  });

  for (const header of ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'content-type']) {
    it(`rejects an update without ${header}`, async () => {
      const res = await raw(sb, 'PATCH', `${A}/card/cardholder?id=cha_demo_chloe`, {
        headers: { ...HA(), [header]: undefined },
        body: { mobile_number: '87654321', country_code: 'US', updated_by: 'qa' },
      });
      expectError(res);
    });
  }
});

describe('family A: POST /card (virtual card)', () => {
  it('creates a virtual card: 201, data carries the id', async () => {
    const res = await raw(sb, 'POST', `${A}/card`, { headers: HA(), body: cardA() });
    expectSuccess(res, 201);
    // the endpoint text says `data` = `{id}`; the envelope table says "array, normally one element"
    const data = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
    expect(typeof data.id).toBe('string');
    // the card exists: its transaction list is readable and empty
    const tx = await raw(sb, 'GET', `${A}/card/transaction?id=${data.id}`, { headers: HA() });
    expectSuccess(tx);
    expect(tx.body.data.items).toEqual([]);
    expect(tx.body.data.has_more).toBe(false);
  });

  it('spend limits are optional (program defaults apply)', async () => {
    const body = withPath(cardA(), 'authorization_controls.transaction_limits.limits', DELETE);
    const res = await raw(sb, 'POST', `${A}/card`, { headers: HA(), body });
    expectSuccess(res, 201);
  });

  const required = [
    'card_type',
    'card_holder_id',
    'created_by',
    'request_id',
    'program',
    'program.purpose',
    'authorization_controls',
    'authorization_controls.allowed_transaction_count',
    'authorization_controls.transaction_limits',
    'authorization_controls.transaction_limits.currency',
    'authorization_controls.transaction_limits.limits.0.amount',
    'authorization_controls.transaction_limits.limits.0.interval',
    'is_personalized',
  ];
  for (const path of required) {
    it(`rejects a missing required field: ${path}`, async () => {
      const res = await raw(sb, 'POST', `${A}/card`, {
        headers: HA(),
        body: withPath(cardA(), path, DELETE),
      });
      expectError(res);
    });
  }

  const invalid: [string, string, unknown][] = [
    ['card_type PHYSICAL', 'card_type', 'PHYSICAL'],
    ['purpose other than COMMERCIAL', 'program.purpose', 'CONSUMER'],
    ['allowed_transaction_count SINGLE', 'authorization_controls.allowed_transaction_count', 'SINGLE'],
    [
      'interval other than PER_TRANSACTION',
      'authorization_controls.transaction_limits.limits.0.interval',
      'DAILY',
    ],
    ['is_personalized true', 'is_personalized', true],
    ['unknown cardholder', 'card_holder_id', 'cha_nope'],
  ];
  for (const [label, path, value] of invalid) {
    it(`rejects ${label}`, async () => {
      const res = await raw(sb, 'POST', `${A}/card`, { headers: HA(), body: withPath(cardA(), path, value) });
      expectError(res);
    });
  }

  for (const header of ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'content-type']) {
    it(`rejects card creation without ${header}`, async () => {
      const res = await raw(sb, 'POST', `${A}/card`, {
        headers: { ...HA(), [header]: undefined },
        body: cardA(),
      });
      expectError(res);
    });
  }

  it('rejects card creation without Authorization (400 naming the missing header)', async () => {
    const res = await raw(sb, 'POST', `${A}/card`, {
      headers: { ...HA(), authorization: undefined },
      body: cardA(),
    });
    expectError(res);
    expect(res.body.message).toContain('Authorization');
  });

  it('the same x-request-id and body returns the same card', async () => {
    const headers = HA();
    const body = cardA();
    const r1 = await raw(sb, 'POST', `${A}/card`, { headers, body });
    const r2 = await raw(sb, 'POST', `${A}/card`, { headers, body });
    expectSuccess(r1, 201);
    expect(r2.status).toBe(201);
    expect(r2.body).toEqual(r1.body);
  });
});

describe('family A: physical cards (assign, activate, PIN reset)', () => {
  it('assigns a card from inventory: 200, data = [{card_id}]; activation with code and pin succeeds', async () => {
    const res = await raw(sb, 'POST', `${A}/card/assign`, { headers: HA(), body: assignA() });
    expectSuccess(res);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data).toHaveLength(1);
    const cardId = res.body.data[0].card_id as string;
    expect(typeof cardId).toBe('string');

    const act = await raw(sb, 'POST', `${A}/card/activate?id=${cardId}`, {
      headers: HA(),
      body: { activation_code: '739215', pin: '1234' },
    });
    expectSuccess(act);

    const pin = await raw(sb, 'POST', `${A}/card/pin?id=${cardId}`, { headers: HA(), body: { pin: '5678' } });
    expect(pin.status).toBe(200);
    expect(pin.body.status).not.toBe('error');
  });

  it('accepts created_by as spelled in the sample body', async () => {
    const body = assignA({ created_by: 'qa' });
    delete body.createdBy;
    const res = await raw(sb, 'POST', `${A}/card/assign`, { headers: HA(), body });
    expectSuccess(res);
  });

  for (const path of ['cardholder_id', 'card_number', 'card_currency', 'card_mode', 'createdBy']) {
    it(`assign rejects a missing ${path}`, async () => {
      const res = await raw(sb, 'POST', `${A}/card/assign`, {
        headers: HA(),
        body: withPath(assignA(), path, DELETE),
      });
      expectError(res);
    });
  }

  it('assign rejects card_mode other than SINGLE', async () => {
    const res = await raw(sb, 'POST', `${A}/card/assign`, {
      headers: HA(),
      body: assignA({ card_mode: 'MULTI' }),
    });
    expectError(res);
  });

  it('assign rejects an unknown card number and an already assigned card', async () => {
    const unknown = await raw(sb, 'POST', `${A}/card/assign`, {
      headers: HA(),
      body: assignA({ card_number: '5300009999999999' }),
    });
    expectError(unknown);
    const taken = await raw(sb, 'POST', `${A}/card/assign`, {
      headers: HA(),
      body: assignA({ card_number: '5300001000000046' }),
    });
    expectError(taken);
  });

  it('assign refuses the same card twice', async () => {
    expectSuccess(await raw(sb, 'POST', `${A}/card/assign`, { headers: HA(), body: assignA() }));
    const again = await raw(sb, 'POST', `${A}/card/assign`, {
      headers: HA(),
      body: assignA({ cardholder_id: 'cha_demo_ben' }),
    });
    expectError(again);
  });

  it('assign rejects an unknown cardholder', async () => {
    const res = await raw(sb, 'POST', `${A}/card/assign`, {
      headers: HA(),
      body: assignA({ cardholder_id: 'cha_nope' }),
    });
    expectError(res);
  });

  it('activate rejects a missing activation_code, a missing pin, a wrong code', async () => {
    const res = await raw(sb, 'POST', `${A}/card/assign`, { headers: HA(), body: assignA() });
    const cardId = res.body.data[0].card_id as string;
    for (const body of [
      { pin: '1234' },
      { activation_code: '739215' },
      { activation_code: '000000', pin: '1234' },
    ]) {
      const act = await raw(sb, 'POST', `${A}/card/activate?id=${cardId}`, { headers: HA(), body });
      expectError(act);
    }
  });

  it('activate rejects an unknown card', async () => {
    const act = await raw(sb, 'POST', `${A}/card/activate?id=card_nope`, {
      headers: HA(),
      body: { activation_code: '739215', pin: '1234' },
    });
    expectError(act);
  });

  it('PIN reset on the seeded physical card succeeds; a missing pin is refused', async () => {
    const ok = await raw(sb, 'POST', `${A}/card/pin?id=card_demo_ava_physical`, {
      headers: HA(),
      body: { pin: '4321' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.status).not.toBe('error');
    const bad = await raw(sb, 'POST', `${A}/card/pin?id=card_demo_ava_physical`, { headers: HA(), body: {} });
    expectError(bad);
    const unknown = await raw(sb, 'POST', `${A}/card/pin?id=card_nope`, {
      headers: HA(),
      body: { pin: '4321' },
    });
    expectError(unknown);
  });

  for (const header of ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'content-type']) {
    it(`assign, activate and PIN reset reject a request without ${header}`, async () => {
      const a = await raw(sb, 'POST', `${A}/card/assign`, {
        headers: { ...HA(), [header]: undefined },
        body: assignA(),
      });
      expectError(a);
      const act = await raw(sb, 'POST', `${A}/card/activate?id=card_demo_ava_physical`, {
        headers: { ...HA(), [header]: undefined },
        body: { activation_code: '264088', pin: '1234' },
      });
      expectError(act);
      const pin = await raw(sb, 'POST', `${A}/card/pin?id=card_demo_ava_physical`, {
        headers: { ...HA(), [header]: undefined },
        body: { pin: '1234' },
      });
      expectError(pin);
    });
  }
});

describe('family A: wallets', () => {
  const WH = (extra: Headers = {}) => HA({ 'x-cardholder-id': 'cha_demo_chloe', ...extra });

  it('creates a wallet (200, data = [Wallet]) and lists it', async () => {
    const res = await raw(sb, 'POST', `${A}/wallet`, { headers: WH(), body: { currency: 'USD' } });
    expectSuccess(res);
    expect(res.body.data).toHaveLength(1);
    const w = res.body.data[0] as Obj;
    expectWalletShape(w);
    expect(w.currency).toBe('USD');
    const list = await raw(sb, 'GET', `${A}/wallet`, { headers: WH() });
    expectSuccess(list);
    expect((list.body.data as Obj[]).map((x) => x.id)).toContain(w.id);
  });

  it('Authorization is optional on wallet endpoints', async () => {
    const res = await raw(sb, 'POST', `${A}/wallet`, {
      headers: { ...WH(), authorization: undefined },
      body: { currency: 'EUR' },
    });
    expectSuccess(res);
    const list = await raw(sb, 'GET', `${A}/wallet`, { headers: { ...WH(), authorization: undefined } });
    expectSuccess(list);
    const hist = await raw(sb, 'GET', `${A}/wallet/history`, {
      headers: HA({
        'x-cardholder-id': 'cha_demo_ava',
        'x-wallet-id': 'wal_demo_ava_eur',
        authorization: undefined,
      }),
    });
    expectSuccess(hist);
  });

  it('lists seeded wallets of Ava', async () => {
    const list = await raw(sb, 'GET', `${A}/wallet`, { headers: HA({ 'x-cardholder-id': 'cha_demo_ava' }) });
    expectSuccess(list);
    const data = list.body.data as Obj[];
    for (const w of data) expectWalletShape(w);
    const usd = data.find((w) => w.id === 'wal_demo_ava_usd');
    expect(usd?.currency).toBe('USD');
    expect(usd?.amount).toBeCloseTo(3531.55, 2);
    expect(data.map((w) => w.id)).toContain('wal_demo_ava_eur');
  });

  it('create rejects a missing currency', async () => {
    const res = await raw(sb, 'POST', `${A}/wallet`, { headers: WH(), body: {} });
    expectError(res);
  });

  for (const header of ['x-cardholder-id', 'x-api-key', 'x-product-id', 'x-request-id', 'x-user-id']) {
    it(`wallet create and list reject a request without ${header}`, async () => {
      const c = await raw(sb, 'POST', `${A}/wallet`, {
        headers: { ...WH(), [header]: undefined },
        body: { currency: 'USD' },
      });
      expectError(c);
      const l = await raw(sb, 'GET', `${A}/wallet`, { headers: { ...WH(), [header]: undefined } });
      expectError(l);
    });
  }

  it('wallet create is idempotent on x-request-id', async () => {
    const headers = WH();
    const r1 = await raw(sb, 'POST', `${A}/wallet`, { headers, body: { currency: 'USD' } });
    const r2 = await raw(sb, 'POST', `${A}/wallet`, { headers, body: { currency: 'USD' } });
    expectSuccess(r1);
    expect(r2.body).toEqual(r1.body);
    const list = await raw(sb, 'GET', `${A}/wallet`, { headers: WH() });
    expect(list.body.data).toHaveLength(1);
  });
});

describe('family A: GET /wallet/history', () => {
  const HH = (extra: Headers = {}) =>
    HA({ 'x-cardholder-id': 'cha_demo_ava', 'x-wallet-id': 'wal_demo_ava_usd', ...extra });

  it('returns the transactions of the wallet with the documented fields', async () => {
    const res = await raw(sb, 'GET', `${A}/wallet/history?page=1&size=100`, { headers: HH() });
    expectSuccess(res);
    const data = res.body.data as Obj[];
    expect(data).toHaveLength(25);
    for (const t of data) {
      expectHistoryItemShape(t);
      expect(t.wallet_id).toBe('wal_demo_ava_usd');
    }
    const slNos = data.map((t) => t.genericSlNo as number).sort((a, b) => a - b);
    expect(slNos[0]).toBe(1001);
    expect(slNos[24]).toBe(1025);
    const types = new Set(data.map((t) => t.txn_type));
    for (const ty of ['P2P', 'deduction', 'fee_PERTXN', 'FEE', 'fee_SCTF']) expect(types.has(ty)).toBe(true);
    expect(data.filter((t) => t.updatedAt === null)).toHaveLength(3);
    const card = data.filter((t) => t.card_id === 'card_demo_ava_virtual');
    expect(card.length).toBeGreaterThan(0);
    for (const t of card) expect(typeof t.masked_card_number).toBe('string');
  });

  it('pages with page and size', async () => {
    const p1 = await raw(sb, 'GET', `${A}/wallet/history?page=1&size=10`, { headers: HH() });
    const p3 = await raw(sb, 'GET', `${A}/wallet/history?page=3&size=10`, { headers: HH() });
    expectSuccess(p1);
    expectSuccess(p3);
    expect(p1.body.data).toHaveLength(10);
    expect(p3.body.data).toHaveLength(5);
    const ids1 = (p1.body.data as Obj[]).map((t) => t.genericSlNo);
    for (const t of p3.body.data as Obj[]) expect(ids1).not.toContain(t.genericSlNo);
  });

  it('filters with from_date/to_date in YYYY-MM-DD form', async () => {
    const res = await raw(sb, 'GET', `${A}/wallet/history?from_date=2026-08-01&to_date=2026-08-10&size=100`, {
      headers: HH(),
    });
    expectSuccess(res);
    const data = res.body.data as Obj[];
    expect(data.length).toBeGreaterThanOrEqual(3);
    expect(data.length).toBeLessThanOrEqual(4);
    for (const t of data) {
      expect((t.initiatedAt as string) >= '2026-08-01T00:00:00').toBe(true);
      expect((t.initiatedAt as string) < '2026-08-11T00:00:00').toBe(true);
    }
  });

  it('filters with from_date/to_date in yyyy-MM-ddTHH:mm:ss form', async () => {
    const res = await raw(
      sb,
      'GET',
      `${A}/wallet/history?from_date=2026-08-01T00:00:00&to_date=2026-08-05T00:00:00&size=100`,
      { headers: HH() },
    );
    expectSuccess(res);
    const data = res.body.data as Obj[];
    expect(data).toHaveLength(2);
  });

  it('rejects a malformed from_date', async () => {
    const res = await raw(sb, 'GET', `${A}/wallet/history?from_date=01-08-2026&to_date=2026-08-10`, {
      headers: HH(),
    });
    expectError(res);
  });

  for (const header of [
    'x-cardholder-id',
    'x-wallet-id',
    'x-api-key',
    'x-product-id',
    'x-request-id',
    'x-user-id',
  ]) {
    it(`rejects a history request without ${header}`, async () => {
      const res = await raw(sb, 'GET', `${A}/wallet/history`, { headers: { ...HH(), [header]: undefined } });
      expectError(res);
    });
  }

  it("rejects a wallet that is not the cardholder's", async () => {
    const res = await raw(sb, 'GET', `${A}/wallet/history`, {
      headers: HH({ 'x-wallet-id': 'wal_demo_ben_usd' }),
    });
    expectError(res);
  });

  it('an empty wallet has an empty history', async () => {
    const res = await raw(sb, 'GET', `${A}/wallet/history`, {
      headers: HA({ 'x-cardholder-id': 'cha_demo_ben', 'x-wallet-id': 'wal_demo_ben_usd' }),
    });
    expectSuccess(res);
    expect(res.body.data).toEqual([]);
  });
});

describe('family A: KYC and RFI', () => {
  const KH = (id: string, extra: Headers = {}) => HA({ 'x-cardholderHash-id': id, ...extra });

  it('GET /kyc of a completed cardholder: data = [KYC view], empty link', async () => {
    const res = await raw(sb, 'GET', `${A}/kyc`, { headers: KH('cha_demo_ava') });
    expectSuccess(res);
    expect(Array.isArray(res.body.data)).toBe(true);
    const k = res.body.data[0] as Obj;
    expectKycView(k);
    expect(k.kycStatus).toBe('COMPLETED');
    expect(k.complianceStatus).toBe('COMPLETED');
    expect(k.kycLink).toBe('');
    expect(k.email).toBe('ava.tan@demo.bankops.test');
  });

  it('GET /kyc of a pending cardholder has a submission link', async () => {
    const res = await raw(sb, 'GET', `${A}/kyc`, { headers: KH('cha_demo_ben') });
    expectSuccess(res);
    const k = res.body.data[0] as Obj;
    expectKycView(k);
    expect(k.kycStatus).toBe('PENDING');
    expect(k.complianceStatus).toBe('IN_PROGRESS');
    expect(typeof k.kycLink).toBe('string');
    expect((k.kycLink as string).length).toBeGreaterThan(0);
  });

  it('GET /kyc/rfi returns the RFI details', async () => {
    const res = await raw(sb, 'GET', `${A}/kyc/rfi`, { headers: KH('cha_demo_ben') });
    expectSuccess(res);
    const rfi = (Array.isArray(res.body.data) ? res.body.data[0] : res.body.data) as Obj;
    const codes = rfi.services_declined_codes as Record<string, string[]>;
    expect(codes.address).toEqual(['ADDRESS_PROOF_EXPIRED']);
    expect(codes.document).toEqual(['DOCUMENT_UNREADABLE']);
    expect(typeof rfi.declined_reason).toBe('string');
  });

  it('GET /kyc/rfi/respond returns the KYC view with a link', async () => {
    const res = await raw(sb, 'GET', `${A}/kyc/rfi/respond`, { headers: KH('cha_demo_ben') });
    expectSuccess(res);
    const k = res.body.data[0] as Obj;
    expectKycView(k);
    expect((k.kycLink as string).length).toBeGreaterThan(0);
  });

  it('x-client-id is optional and accepted', async () => {
    const res = await raw(sb, 'GET', `${A}/kyc`, {
      headers: KH('cha_demo_ava', { 'x-client-id': 'client-1' }),
    });
    expectSuccess(res);
  });

  it('completing KYC (control surface) turns the view COMPLETED with an empty link', async () => {
    const done = await raw(sb, 'POST', '/_sandbox/issuing-a/kyc/complete', {
      headers: { 'content-type': 'application/json' },
      body: { cardholderId: 'cha_demo_chloe' },
    });
    expect(done.status).toBe(200);
    const res = await raw(sb, 'GET', `${A}/kyc`, { headers: KH('cha_demo_chloe') });
    expectSuccess(res);
    expect(res.body.data[0].kycStatus).toBe('COMPLETED');
    expect(res.body.data[0].kycLink).toBe('');
  });

  for (const path of ['/kyc', '/kyc/rfi', '/kyc/rfi/respond']) {
    it(`${path} rejects a request without x-cardholderHash-id, and an unknown cardholder`, async () => {
      const res = await raw(sb, 'GET', `${A}${path}`, { headers: HA() });
      expectError(res);
      const unknown = await raw(sb, 'GET', `${A}${path}`, { headers: KH('cha_nope') });
      expectError(unknown);
    });
    for (const header of ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id']) {
      it(`${path} rejects a request without ${header}`, async () => {
        const res = await raw(sb, 'GET', `${A}${path}`, {
          headers: { ...KH('cha_demo_ben'), [header]: undefined },
        });
        expectError(res);
      });
    }
  }
});

describe('family A: GET /card/transaction', () => {
  const url = (q: string) => `${A}/card/transaction?id=card_demo_ava_virtual${q}`;

  it('returns data = {has_more, items[]} with the documented item fields', async () => {
    const res = await raw(sb, 'GET', url('&page_num=1&page_size=100'), { headers: HA() });
    expectSuccess(res);
    expect(Array.isArray(res.body.data)).toBe(false);
    expect(typeof res.body.data.has_more).toBe('boolean');
    const items = res.body.data.items as Obj[];
    expect(items).toHaveLength(12);
    expect(res.body.data.has_more).toBe(false);
    for (const t of items) {
      for (const f of [
        'acquiring_institution_identifier',
        'auth_code',
        'billing_amount',
        'billing_currency',
        'card_id',
        'card_nickname',
        'client_data',
        'digital_wallet_token_id',
        'failure_reason',
        'lifecycle_id',
        'masked_card_number',
        'matched_authorizations',
        'merchant',
        'network_transaction_id',
        'posted_date',
        'retrieval_ref',
        'risk_details',
        'status',
        'transaction_amount',
        'transaction_currency',
        'transaction_date',
        'transaction_id',
        'transaction_type',
      ]) {
        expect(t, f).toHaveProperty(f);
      }
      expect(t.card_id).toBe('card_demo_ava_virtual');
      expect(Array.isArray(t.matched_authorizations)).toBe(true);
      const m = t.merchant as Obj;
      for (const f of ['category_code', 'city', 'country', 'identifier', 'name', 'postcode', 'state']) {
        expect(m).toHaveProperty(f);
      }
      const r = t.risk_details as Obj;
      expect(Array.isArray(r.risk_actions_performed)).toBe(true);
      expect(Array.isArray(r.risk_factors)).toBe(true);
      expect(r).toHaveProperty('three_dsecure_outcome');
      expect(t.transaction_date as string).toMatch(ISO_OFFSET);
    }
    const refund = items.find((t) => t.transaction_id === 'ctx_demo_000008');
    expect(refund?.transaction_type).toBe('REFUND');
    expect(refund?.matched_authorizations).toContain('ctx_demo_000004');
    const declined = items.find((t) => t.transaction_id === 'ctx_demo_000010');
    expect(declined?.failure_reason).toBe('INSUFFICIENT_FUNDS');
  });

  it('pages with page_num/page_size and reports has_more', async () => {
    const p1 = await raw(sb, 'GET', url('&page_num=1&page_size=5'), { headers: HA() });
    expectSuccess(p1);
    expect(p1.body.data.items).toHaveLength(5);
    expect(p1.body.data.has_more).toBe(true);
    const p3 = await raw(sb, 'GET', url('&page_num=3&page_size=5'), { headers: HA() });
    expectSuccess(p3);
    expect(p3.body.data.items).toHaveLength(2);
    expect(p3.body.data.has_more).toBe(false);
  });

  it('filters with from_created_at and to_created_at given together', async () => {
    const res = await raw(
      sb,
      'GET',
      url('&from_created_at=2026-09-01&to_created_at=2026-09-15&page_size=100'),
      {
        headers: HA(),
      },
    );
    expectSuccess(res);
    const items = res.body.data.items as Obj[];
    expect(items).toHaveLength(3);
    for (const t of items) {
      expect((t.transaction_date as string).slice(0, 10) >= '2026-09-01').toBe(true);
      expect((t.transaction_date as string).slice(0, 10) <= '2026-09-15').toBe(true);
    }
  });

  it('rejects from_created_at without to_created_at and the reverse', async () => {
    expectError(await raw(sb, 'GET', url('&from_created_at=2026-09-01'), { headers: HA() }));
    expectError(await raw(sb, 'GET', url('&to_created_at=2026-09-15'), { headers: HA() }));
  });

  it('rejects dates not in YYYY-MM-DD form', async () => {
    expectError(
      await raw(sb, 'GET', url('&from_created_at=2026/09/01&to_created_at=2026/09/15'), { headers: HA() }),
    );
  });

  it('rejects a missing id and an unknown card', async () => {
    expectError(await raw(sb, 'GET', `${A}/card/transaction`, { headers: HA() }));
    expectError(await raw(sb, 'GET', `${A}/card/transaction?id=card_nope`, { headers: HA() }));
  });

  for (const header of ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id']) {
    it(`rejects a request without ${header}`, async () => {
      expectError(await raw(sb, 'GET', url(''), { headers: { ...HA(), [header]: undefined } }));
    });
  }

  it('rejects a request without Authorization (400 naming the missing header)', async () => {
    expectError(await raw(sb, 'GET', url(''), { headers: { ...HA(), authorization: undefined } }));
  });

  it('rejects an invalid bearer token (documented: 401)', async () => {
    expectError(await raw(sb, 'GET', url(''), { headers: { ...HA(), authorization: 'Bearer x.y.z' } }), 401);
  });
});

// =============================================================================================
// Family B
// =============================================================================================

describe('family B: common rules', () => {
  it('{version} other than v1 is refused (documented: 400)', async () => {
    const res = await raw(sb, 'GET', '/issuing/api/v2/wallet', {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }),
    });
    expectError(res);
  });

  it('Authorization is optional; a valid bearer token is accepted', async () => {
    const res = await raw(sb, 'GET', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', authorization: `Bearer ${token}` }),
    });
    expectSuccess(res);
  });

  it('an invalid bearer token is refused even where optional (documented: 401)', async () => {
    const res = await raw(sb, 'GET', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', authorization: 'Bearer not-a-token' }),
    });
    expectError(res, 401);
  });

  it('x-user-id is not required and x-client-id is optional', async () => {
    const res = await raw(sb, 'GET', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-client-id': 'client-1' }),
    });
    expectSuccess(res);
  });

  it('errors use the issuing envelope {code, message, status}', async () => {
    const res = await raw(sb, 'GET', `${B}/wallet`, { headers: HB2() });
    expectError(res);
    expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(['code', 'message', 'status']));
  });
});

describe('family B: cardholders', () => {
  it('creates a cardholder: 200, data = [{id}]; detail view has every field plus id, createAt, status', async () => {
    const body = cardholderB({
      middleName: 'Paul',
      deliveryAddress3: 'Floor 3',
      billingAddress4: 'c/o Reception',
    });
    const res = await raw(sb, 'POST', `${B}/cardholder`, { headers: HBcreateCardholder(), body });
    expectSuccess(res);
    expect(res.body.data).toHaveLength(1);
    const id = res.body.data[0].id as string;
    expect(typeof id).toBe('string');
    const ch = await getCardholderB(id);
    expect(ch.id).toBe(id);
    for (const [k, v] of Object.entries(body)) expect(ch[k], k).toEqual(v);
    expect(ch.createAt as string).toMatch(TS_SPACE);
    expect(typeof ch.status).toBe('string');
  });

  it('reads a seeded cardholder (status ACTIVE)', async () => {
    const ch = await getCardholderB('chb_demo_alice');
    expect(ch.id).toBe('chb_demo_alice');
    expect(ch.email).toBe('alice.tan@cards.demo.bankops.test');
    expect(ch.status).toBe('ACTIVE');
    expect(ch.createAt as string).toMatch(TS_SPACE);
    for (const f of [
      'title',
      'firstName',
      'middleName',
      'lastName',
      'preferredName',
      'gender',
      'dateOfBirth',
      'mobileCountryName',
      'mobileCountryCode',
      'mobile',
      'nationality',
      'deliveryAddress1',
      'deliveryAddress2',
      'deliveryAddress3',
      'deliveryAddress4',
      'deliveryCity',
      'deliveryState',
      'deliveryCountry',
      'deliveryZipCode',
      'billingAddress1',
      'billingAddress2',
      'billingAddress3',
      'billingAddress4',
      'billingCity',
      'billingState',
      'billingCountry',
      'billingZipCode',
      'kycProviderName',
      'kycReferenceId',
    ]) {
      expect(ch, f).toHaveProperty(f);
    }
  });

  const required = [
    'title',
    'firstName',
    'lastName',
    'preferredName',
    'gender',
    'dateOfBirth',
    'mobileCountryCode',
    'mobile',
    'nationality',
    'email',
    'deliveryAddress1',
    'deliveryAddress2',
    'deliveryCity',
    'deliveryState',
    'deliveryCountry',
    'deliveryZipCode',
    'billingAddress1',
    'billingAddress2',
    'billingCity',
    'billingState',
    'billingCountry',
    'billingZipCode',
  ];
  for (const f of required) {
    it(`create rejects a missing required field: ${f}`, async () => {
      const res = await raw(sb, 'POST', `${B}/cardholder`, {
        headers: HBcreateCardholder(),
        body: withPath(cardholderB(), f, DELETE),
      });
      expectError(res);
    });
  }

  it('optional fields may be omitted', async () => {
    const body = cardholderB();
    delete body.mobileCountryName;
    await createCardholderB(body);
  });

  const lengths: [string, number][] = [
    ['firstName', 14],
    ['middleName', 35],
    ['lastName', 11],
    ['preferredName', 26],
    ['deliveryAddress1', 35],
    ['deliveryAddress2', 35],
    ['deliveryAddress3', 35],
    ['deliveryAddress4', 35],
    ['billingAddress1', 35],
    ['billingAddress2', 35],
    ['billingAddress3', 35],
    ['billingAddress4', 35],
    ['deliveryState', 20],
    ['billingState', 20],
  ];
  for (const [f, max] of lengths) {
    it(`${f}: ${max} characters accepted, ${max + 1} refused (create and update)`, async () => {
      const ok = 'A'.repeat(max);
      const tooLong = 'A'.repeat(max + 1);
      const id = await createCardholderB(cardholderB({ [f]: ok }));
      const bad = await raw(sb, 'POST', `${B}/cardholder`, {
        headers: HBcreateCardholder(),
        body: cardholderB({ [f]: tooLong }),
      });
      expectError(bad);
      const badUpdate = await raw(sb, 'PATCH', `${B}/cardholder`, {
        headers: HB2({ 'x-cardholderHash-id': id }),
        body: { [f]: tooLong },
      });
      expectError(badUpdate);
    });
  }

  const invalid: [string, string, unknown][] = [
    ['title Dr', 'title', 'Dr'],
    ['gender X', 'gender', 'X'],
    ['dateOfBirth not YYYY-MM-DD', 'dateOfBirth', '29/02/1988'],
    ['mobileCountryCode with a plus sign', 'mobileCountryCode', '+65'],
    ['mobile with 7 digits', 'mobile', '9123456'],
    ['mobile with 13 digits', 'mobile', '9123456789012'],
    ['mobile with a non-digit', 'mobile', '9123-4567'],
    ['mobile with a plus sign', 'mobile', '+6591234567'],
    ['nationality with 3 letters', 'nationality', 'SGP'],
    ['deliveryCountry with 3 letters', 'deliveryCountry', 'SGP'],
    ['billingCountry with 3 letters', 'billingCountry', 'SGP'],
    ['mobileCountryName with 3 letters', 'mobileCountryName', 'SGP'],
    ['address line starting with a space', 'deliveryAddress1', ' 10 Anson Road'],
    ['address line ending with a space', 'billingAddress1', '10 Anson Road '],
    ['address line with a character outside the set', 'deliveryAddress1', '10 Anson Road!'],
    ['address line with a star', 'billingAddress2', 'Unit *5'],
  ];
  for (const [label, f, value] of invalid) {
    it(`create rejects ${label}`, async () => {
      const res = await raw(sb, 'POST', `${B}/cardholder`, {
        headers: HBcreateCardholder(),
        body: cardholderB({ [f]: value }),
      });
      expectError(res);
    });
  }

  for (const title of ['Mr', 'Mrs', 'Miss']) {
    it(`accepts title ${title}`, async () => {
      await createCardholderB(cardholderB({ title }));
    });
  }
  for (const gender of ['M', 'F', 'O']) {
    it(`accepts gender ${gender}`, async () => {
      await createCardholderB(cardholderB({ gender }));
    });
  }

  it('mobile of 8 and of 12 digits is accepted', async () => {
    await createCardholderB(cardholderB({ mobile: '12345678' }));
    await createCardholderB(cardholderB({ mobile: '123456789012' }));
  });

  it('address lines accept _ @ # / , . - ( ) on create', async () => {
    await createCardholderB(
      cardholderB({ deliveryAddress1: 'A_b@c#d/e,f.g-h(i)j', billingAddress3: 'x (y) z' }),
    );
  });

  it('address lines on update accept _ @ # / , . - but refuse ( )', async () => {
    const id = await createCardholderB();
    const ok = await raw(sb, 'PATCH', `${B}/cardholder`, {
      headers: HB2({ 'x-cardholderHash-id': id }),
      body: { deliveryAddress1: 'A_b@c#d/e,f.g-h' },
    });
    expectSuccess(ok);
    const bad = await raw(sb, 'PATCH', `${B}/cardholder`, {
      headers: HB2({ 'x-cardholderHash-id': id }),
      body: { deliveryAddress1: 'Tower (East)' },
    });
    expectError(bad);
  });

  it('KYC provider: the pair is accepted, each provider value is accepted', async () => {
    for (const p of ['SUMSUB', 'MYINFO', 'JUMIO', 'DIDIT']) {
      await createCardholderB(cardholderB({ kycProviderName: p, kycReferenceId: `ref-${p}` }));
    }
  });

  it('rejects kycReferenceId without kycProviderName (create and update)', async () => {
    const res = await raw(sb, 'POST', `${B}/cardholder`, {
      headers: HBcreateCardholder(),
      body: cardholderB({ kycReferenceId: 'ref-1' }),
    });
    expectError(res);
    const id = await createCardholderB();
    const upd = await raw(sb, 'PATCH', `${B}/cardholder`, {
      headers: HB2({ 'x-cardholderHash-id': id }),
      body: { kycReferenceId: 'ref-1' },
    });
    expectError(upd);
  });

  it('rejects kycProviderName without kycReferenceId, and an unknown provider', async () => {
    expectError(
      await raw(sb, 'POST', `${B}/cardholder`, {
        headers: HBcreateCardholder(),
        body: cardholderB({ kycProviderName: 'SUMSUB' }),
      }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/cardholder`, {
        headers: HBcreateCardholder(),
        body: cardholderB({ kycProviderName: 'ONFIDO', kycReferenceId: 'r' }),
      }),
    );
  });

  for (const header of [
    'x-api-key',
    'x-product-id',
    'x-request-id',
    'content-type',
    'x-agent-code',
    'x-subagent-code',
  ]) {
    it(`create rejects a request without ${header}`, async () => {
      const res = await raw(sb, 'POST', `${B}/cardholder`, {
        headers: { ...HBcreateCardholder(), [header]: undefined },
        body: cardholderB(),
      });
      expectError(res);
    });
  }

  it('create is idempotent on x-request-id', async () => {
    const headers = HBcreateCardholder();
    const body = cardholderB();
    const r1 = await raw(sb, 'POST', `${B}/cardholder`, { headers, body });
    const r2 = await raw(sb, 'POST', `${B}/cardholder`, { headers, body });
    expectSuccess(r1);
    expect(r2.body).toEqual(r1.body);
  });

  it('PATCH updates a subset: 200, data = [message string]; other fields unchanged', async () => {
    const id = await createCardholderB();
    const res = await raw(sb, 'PATCH', `${B}/cardholder`, {
      headers: HB2({ 'x-cardholderHash-id': id }),
      body: { firstName: 'Jonathan', mobile: '987654321' },
    });
    expectSuccess(res);
    expect(res.body.data).toHaveLength(1);
    expect(typeof res.body.data[0]).toBe('string');
    const ch = await getCardholderB(id);
    expect(ch.firstName).toBe('Jonathan');
    expect(ch.mobile).toBe('987654321');
    expect(ch.lastName).toBe('Smith');
    expect(ch.deliveryCity).toBe('Singapore');
  });

  it('PATCH enforces field rules (title, gender, mobile)', async () => {
    const id = await createCardholderB();
    for (const body of [{ title: 'Dr' }, { gender: 'Z' }, { mobile: '123' }, { nationality: 'SGP' }]) {
      const res = await raw(sb, 'PATCH', `${B}/cardholder`, {
        headers: HB2({ 'x-cardholderHash-id': id }),
        body,
      });
      expectError(res);
    }
  });

  it('GET and PATCH reject a missing x-cardholderHash-id and an unknown cardholder', async () => {
    expectError(await raw(sb, 'GET', `${B}/cardholder`, { headers: HB2() }));
    expectError(
      await raw(sb, 'GET', `${B}/cardholder`, { headers: HB2({ 'x-cardholderHash-id': 'chb_nope' }) }),
    );
    expectError(await raw(sb, 'PATCH', `${B}/cardholder`, { headers: HB2(), body: { firstName: 'X' } }));
    expectError(
      await raw(sb, 'PATCH', `${B}/cardholder`, {
        headers: HB2({ 'x-cardholderHash-id': 'chb_nope' }),
        body: { firstName: 'X' },
      }),
    );
  });

  for (const header of ['x-api-key', 'x-product-id', 'x-request-id']) {
    it(`GET and PATCH reject a request without ${header}`, async () => {
      const hd = { ...HB2({ 'x-cardholderHash-id': 'chb_demo_alice' }), [header]: undefined };
      expectError(await raw(sb, 'GET', `${B}/cardholder`, { headers: hd }));
      expectError(await raw(sb, 'PATCH', `${B}/cardholder`, { headers: hd, body: { firstName: 'X' } }));
    });
  }
});

describe('family B: activate cardholder', () => {
  it('a deactivated cardholder cannot create a card; after activation it can', async () => {
    const chloe: Headers = {
      'x-cardholder-id': 'chb_demo_chloe',
      'x-wallet-id': 'wal_demo_chloe_usd',
    };
    const before = await raw(sb, 'POST', `${B}/card`, {
      headers: HB2(chloe),
      body: { card_type: 'virtual' },
    });
    expectError(before);
    const act = await raw(sb, 'POST', `${B}/cardholder/activate`, {
      headers: HB2({ 'x-cardholderHash-id': 'chb_demo_chloe', 'x-cardholder-id': 'chb_demo_chloe' }),
    });
    expectSuccess(act);
    const after = await raw(sb, 'POST', `${B}/card`, { headers: HB2(chloe), body: { card_type: 'virtual' } });
    expectSuccess(after);
  });

  it('deactivation via the control surface and reactivation round-trip', async () => {
    const d = await raw(sb, 'POST', '/_sandbox/issuing-b/cardholders/chb_demo_bruno/deactivate');
    expect(d.status).toBe(200);
    const w = await raw(sb, 'POST', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_bruno' }),
      body: { currency: 'EUR' },
    });
    expectError(w);
    const act = await raw(sb, 'POST', `${B}/cardholder/activate`, {
      headers: HB2({ 'x-cardholderHash-id': 'chb_demo_bruno', 'x-cardholder-id': 'chb_demo_bruno' }),
    });
    expectSuccess(act);
    const w2 = await raw(sb, 'POST', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_bruno' }),
      body: { currency: 'EUR' },
    });
    expectSuccess(w2);
  });
});

describe('family B: wallets and transfers', () => {
  it('creates a wallet (200, data = [Wallet]) and lists it', async () => {
    const res = await raw(sb, 'POST', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }),
      body: { currency: 'EUR' },
    });
    expectSuccess(res);
    expect(res.body.data).toHaveLength(1);
    const w = res.body.data[0] as Obj;
    expectWalletShape(w);
    expect(w.currency).toBe('EUR');
    const list = await walletsB('chb_demo_alice');
    expect(list.map((x) => x.id)).toEqual(expect.arrayContaining(['wal_demo_alice_usd', w.id]));
    for (const x of list) expectWalletShape(x);
  });

  it('seeded balances', async () => {
    expect((await walletsB('chb_demo_alice')).find((w) => w.id === 'wal_demo_alice_usd')?.amount).toBeCloseTo(
      18596.9,
      2,
    );
    expect((await walletsB('chb_demo_bruno')).find((w) => w.id === 'wal_demo_bruno_usd')?.amount).toBeCloseTo(
      850,
      2,
    );
  });

  it('wallet create rejects a missing currency, a missing x-cardholder-id, an unknown cardholder', async () => {
    expectError(
      await raw(sb, 'POST', `${B}/wallet`, {
        headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }),
        body: {},
      }),
    );
    expectError(await raw(sb, 'POST', `${B}/wallet`, { headers: HB2(), body: { currency: 'USD' } }));
    expectError(await raw(sb, 'GET', `${B}/wallet`, { headers: HB2() }));
    expectError(
      await raw(sb, 'POST', `${B}/wallet`, {
        headers: HB2({ 'x-cardholder-id': 'chb_nope' }),
        body: { currency: 'USD' },
      }),
    );
  });

  for (const header of ['x-api-key', 'x-product-id', 'x-request-id']) {
    it(`wallet endpoints reject a request without ${header}`, async () => {
      const hd = {
        ...HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' }),
        [header]: undefined,
      };
      expectError(await raw(sb, 'POST', `${B}/wallet`, { headers: hd, body: { currency: 'USD' } }));
      expectError(await raw(sb, 'GET', `${B}/wallet`, { headers: hd }));
      expectError(await raw(sb, 'GET', `${B}/wallet/history`, { headers: hd }));
      expectError(
        await raw(sb, 'POST', `${B}/wallet/transfer`, {
          headers: hd,
          body: { email: 'bruno.silva@cards.demo.bankops.test', amount: 1, description: 'x' },
        }),
      );
    });
  }

  it('wallet create is idempotent on x-request-id', async () => {
    const headers = HB2({ 'x-cardholder-id': 'chb_demo_alice' });
    const r1 = await raw(sb, 'POST', `${B}/wallet`, { headers, body: { currency: 'EUR' } });
    const r2 = await raw(sb, 'POST', `${B}/wallet`, { headers, body: { currency: 'EUR' } });
    expectSuccess(r1);
    expect(r2.body).toEqual(r1.body);
    expect((await walletsB('chb_demo_alice')).filter((w) => w.currency === 'EUR')).toHaveLength(1);
  });

  it('history: data = transactions with the documented fields; page/size', async () => {
    const hd = HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' });
    const all = await raw(sb, 'GET', `${B}/wallet/history?page=1&size=100`, { headers: hd });
    expectSuccess(all);
    const data = all.body.data as Obj[];
    expect(data).toHaveLength(32);
    for (const t of data) expectHistoryItemShape(t);
    const p1 = await raw(sb, 'GET', `${B}/wallet/history?page=1&size=10`, { headers: hd });
    const p4 = await raw(sb, 'GET', `${B}/wallet/history?page=4&size=10`, { headers: hd });
    expect(p1.body.data).toHaveLength(10);
    expect(p4.body.data).toHaveLength(2);
  });

  it('history with x-card-id: only completed transactions of that card', async () => {
    const hd = HB2({ ...ALICE, 'x-card-id': 'card_demo_alice_locked' });
    const res = await raw(sb, 'GET', `${B}/wallet/history?page=1&size=100`, { headers: hd });
    expectSuccess(res);
    const data = res.body.data as Obj[];
    expect(data.length).toBeGreaterThan(0);
    expect(data.length).toBeLessThanOrEqual(5);
    for (const t of data) {
      expect(t.card_id).toBe('card_demo_alice_locked');
      expect(['APPROVED', 'SUCCESS']).toContain(t.txn_status);
    }
  });

  it('history with from_date/to_date filters by date', async () => {
    const hd = HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' });
    const res = await raw(sb, 'GET', `${B}/wallet/history?from_date=2026-10-01&to_date=2026-10-10&size=100`, {
      headers: hd,
    });
    expectSuccess(res);
    const data = res.body.data as Obj[];
    expect(data.length).toBeGreaterThan(0);
    expect(data.length).toBeLessThan(32);
    for (const t of data) {
      expect((t.initiatedAt as string).slice(0, 10) >= '2026-10-01').toBe(true);
      expect((t.initiatedAt as string).slice(0, 10) <= '2026-10-10').toBe(true);
    }
  });

  it('history rejects a missing x-wallet-id / x-cardholder-id and a foreign wallet', async () => {
    expectError(
      await raw(sb, 'GET', `${B}/wallet/history`, { headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }) }),
    );
    expectError(
      await raw(sb, 'GET', `${B}/wallet/history`, { headers: HB2({ 'x-wallet-id': 'wal_demo_alice_usd' }) }),
    );
    expectError(
      await raw(sb, 'GET', `${B}/wallet/history`, {
        headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_bruno_usd' }),
      }),
    );
  });

  it('transfer: 200, data = [{id}]; the amount moves from sender to receiver', async () => {
    const res = await raw(sb, 'POST', `${B}/wallet/transfer`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }),
      body: { email: 'bruno.silva@cards.demo.bankops.test', amount: 25.5, description: 'lunch' },
    });
    expectSuccess(res);
    expect(res.body.data).toHaveLength(1);
    expect(typeof res.body.data[0].id).toBe('string');
    const alice = (await walletsB('chb_demo_alice')).find((w) => w.id === 'wal_demo_alice_usd');
    const bruno = (await walletsB('chb_demo_bruno')).find((w) => w.id === 'wal_demo_bruno_usd');
    expect(alice?.amount).toBeCloseTo(18596.9 - 25.5, 2);
    expect(bruno?.amount).toBeCloseTo(850 + 25.5, 2);
  });

  it('transfer is idempotent on x-request-id (moves money once)', async () => {
    const headers = HB2({ 'x-cardholder-id': 'chb_demo_alice' });
    const body = { email: 'bruno.silva@cards.demo.bankops.test', amount: 10, description: 'once' };
    const r1 = await raw(sb, 'POST', `${B}/wallet/transfer`, { headers, body });
    const r2 = await raw(sb, 'POST', `${B}/wallet/transfer`, { headers, body });
    expectSuccess(r1);
    expect(r2.body).toEqual(r1.body);
    const bruno = (await walletsB('chb_demo_bruno')).find((w) => w.id === 'wal_demo_bruno_usd');
    expect(bruno?.amount).toBeCloseTo(860, 2);
  });

  for (const f of ['email', 'amount', 'description']) {
    it(`transfer rejects a missing ${f}`, async () => {
      const body: Obj = { email: 'bruno.silva@cards.demo.bankops.test', amount: 10, description: 'x' };
      delete body[f];
      expectError(
        await raw(sb, 'POST', `${B}/wallet/transfer`, {
          headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }),
          body,
        }),
      );
    });
  }

  it('transfer rejects a missing x-cardholder-id, an unknown receiver, a non-positive amount, too much', async () => {
    const good = { email: 'bruno.silva@cards.demo.bankops.test', amount: 10, description: 'x' };
    expectError(await raw(sb, 'POST', `${B}/wallet/transfer`, { headers: HB2(), body: good }));
    const hd = () => HB2({ 'x-cardholder-id': 'chb_demo_alice' });
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, {
        headers: hd(),
        body: { ...good, email: 'nobody@example.com' },
      }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, { headers: hd(), body: { ...good, amount: 0 } }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, { headers: hd(), body: { ...good, amount: -5 } }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, { headers: hd(), body: { ...good, amount: 1e9 } }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, { headers: hd(), body: { ...good, amount: '10' } }),
    );
  });
});

describe('family B: cards', () => {
  const AW = () => HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' });

  it('creates a virtual card: 200, data = [{cardId}]; active, 3DS enrolled to the e-mail, default limits', async () => {
    const res = await raw(sb, 'POST', `${B}/card`, {
      headers: AW(),
      body: { card_type: 'virtual', is_primary: 'false' },
    });
    expectSuccess(res);
    expect(res.body.data).toHaveLength(1);
    const cardId = res.body.data[0].cardId as string;
    expect(typeof cardId).toBe('string');
    const hd = aliceCard(cardId);
    const details = await cardDetailsB(cardId, hd);
    expect(details.status).toBe('ACTIVE');
    expect(details.card_is_primary).toBe(false);
    const tds = await raw(sb, 'GET', `${B}/card/3DS`, { headers: hd });
    expectSuccess(tds);
    expect(tds.body.data[0].otp_delivery_method).toBe('EMAIL');
    // documented choice: the destination is the full registered e-mail, not masked
    expect(tds.body.data[0].destination).toBe(ALICE_EMAIL);
    expect(tds.body.data[0].status).toBe('ACTIVE');
    expectDefaultLimits(await limitsB(hd));
    const cfg = await raw(sb, 'GET', `${B}/card/configuration`, { headers: hd });
    expect(cfg.body.data[0].card_present_transaction_enabled).toBe(true);
    const list = await listCardsB(AW());
    const item = (list.cards as Obj[]).find((c) => c.cardId === cardId);
    expect(item?.cardType).toBe('VIRTUAL');
    expect(item?.cardStatus).toBe('ACTIVE');
  });

  it('is_primary "true" makes the card primary', async () => {
    const res = await raw(sb, 'POST', `${B}/card`, {
      headers: AW(),
      body: { card_type: 'virtual', is_primary: 'true' },
    });
    expectSuccess(res);
    const details = await cardDetailsB(res.body.data[0].cardId);
    expect(details.card_is_primary).toBe(true);
  });

  it('create rejects a card_type other than virtual, a missing card_type, a bad is_primary', async () => {
    expectError(await raw(sb, 'POST', `${B}/card`, { headers: AW(), body: { card_type: 'physical' } }));
    expectError(await raw(sb, 'POST', `${B}/card`, { headers: AW(), body: {} }));
    expectError(
      await raw(sb, 'POST', `${B}/card`, {
        headers: AW(),
        body: { card_type: 'virtual', is_primary: 'yes' },
      }),
    );
  });

  it('create rejects a missing x-cardholder-id / x-wallet-id, and a wallet of someone else', async () => {
    const body = { card_type: 'virtual' };
    expectError(await raw(sb, 'POST', `${B}/card`, { headers: { ...AW(), 'x-wallet-id': undefined }, body }));
    expectError(
      await raw(sb, 'POST', `${B}/card`, { headers: { ...AW(), 'x-cardholder-id': undefined }, body }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/card`, { headers: { ...AW(), 'x-wallet-id': 'wal_demo_bruno_usd' }, body }),
    );
  });

  it('create is idempotent on x-request-id', async () => {
    const before = (await listCardsB(AW())).total_count as number;
    const headers = AW();
    const r1 = await raw(sb, 'POST', `${B}/card`, { headers, body: { card_type: 'virtual' } });
    const r2 = await raw(sb, 'POST', `${B}/card`, { headers, body: { card_type: 'virtual' } });
    expectSuccess(r1);
    expect(r2.body).toEqual(r1.body);
    expect((await listCardsB(AW())).total_count).toBe(before + 1);
  });

  it('assigns a physical card: 200, data = [{cardId}]; active, 3DS enrolled, default limits', async () => {
    const res = await raw(sb, 'POST', `${B}/card/assign`, {
      headers: AW(),
      body: { last_four_digit: '2468', code: 'K7Q2-9XMA' },
    });
    expectSuccess(res);
    expect(res.body.data).toHaveLength(1);
    const cardId = res.body.data[0].cardId as string;
    const hd = aliceCard(cardId);
    const details = await cardDetailsB(cardId, hd);
    expect(details.status).toBe('ACTIVE');
    const tds = await raw(sb, 'GET', `${B}/card/3DS`, { headers: hd });
    expect(tds.body.data[0].status).toBe('ACTIVE');
    expectDefaultLimits(await limitsB(hd));
    const item = ((await listCardsB(AW())).cards as Obj[]).find((c) => c.cardId === cardId);
    expect(item?.cardType).toBe('PHYSICAL');
    expect(item?.last4).toBe('2468');
  });

  it('assign rejects a wrong code, a missing field, an already assigned card', async () => {
    expectError(
      await raw(sb, 'POST', `${B}/card/assign`, {
        headers: AW(),
        body: { last_four_digit: '2468', code: 'WRONG' },
      }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/card/assign`, { headers: AW(), body: { last_four_digit: '2468' } }),
    );
    expectError(await raw(sb, 'POST', `${B}/card/assign`, { headers: AW(), body: { code: 'K7Q2-9XMA' } }));
    expectSuccess(
      await raw(sb, 'POST', `${B}/card/assign`, {
        headers: AW(),
        body: { last_four_digit: '1357', code: 'P4W8-2ZRT' },
      }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/card/assign`, {
        headers: HB2({ 'x-cardholder-id': 'chb_demo_bruno', 'x-wallet-id': 'wal_demo_bruno_usd' }),
        body: { last_four_digit: '1357', code: 'P4W8-2ZRT' },
      }),
    );
  });

  it('list: data = [{cards[], total_count, page, total_pages}] with the documented item fields', async () => {
    const list = await listCardsB(AW());
    expect(list.total_count).toBe(4);
    expect(list.page).toBe(1);
    expect(list.total_pages).toBe(1);
    const cards = list.cards as Obj[];
    expect(cards.map((c) => c.cardId).sort()).toEqual([
      'card_demo_alice_locked',
      'card_demo_alice_physical',
      'card_demo_alice_stolen',
      'card_demo_alice_virtual',
    ]);
    for (const c of cards) {
      expect(c.createdAt as string).toMatch(DATE_ONLY);
      expect(['VIRTUAL', 'PHYSICAL']).toContain(c.cardType);
      expect(['INACTIVE', 'ACTIVE', 'LOCKED', 'LOST', 'STOLEN', 'BLOCKED']).toContain(c.cardStatus);
      expect(c.last4 as string).toMatch(/^\d{4}$/);
    }
    const byId = Object.fromEntries(cards.map((c) => [c.cardId, c]));
    expect(byId.card_demo_alice_virtual?.last4).toBe('4821');
    expect(byId.card_demo_alice_locked?.cardStatus).toBe('LOCKED');
    expect(byId.card_demo_alice_physical?.cardType).toBe('PHYSICAL');
    expect(byId.card_demo_alice_physical?.cardStatus).toBe('INACTIVE');
    expect(byId.card_demo_alice_stolen?.cardStatus).toBe('STOLEN');
  });

  it('list pages with page and size', async () => {
    const p1 = await listCardsB(AW(), '?page=1&size=3');
    expect(p1.total_count).toBe(4);
    expect(p1.total_pages).toBe(2);
    expect(p1.cards as Obj[]).toHaveLength(3);
    const p2 = await listCardsB(AW(), '?page=2&size=3');
    expect(p2.page).toBe(2);
    expect(p2.cards as Obj[]).toHaveLength(1);
  });

  it('list rejects a missing x-cardholder-id or x-wallet-id', async () => {
    expectError(await raw(sb, 'GET', `${B}/card/list`, { headers: { ...AW(), 'x-wallet-id': undefined } }));
    expectError(
      await raw(sb, 'GET', `${B}/card/list`, { headers: { ...AW(), 'x-cardholder-id': undefined } }),
    );
  });

  it('details: documented fields and types', async () => {
    const d = await cardDetailsB('card_demo_alice_virtual');
    for (const f of [
      'printing_state',
      'daily_spend_limit',
      'purchase_limit',
      'total_spend_limit',
      'weekly_spend_limit',
      'monthly_spend_limit',
      'created_at',
      'card_type',
      'card_delivery_status',
      'card_number_id',
      'truncated_card_number',
      'status',
    ]) {
      expect(d, f).toHaveProperty(f);
    }
    for (const f of [
      'daily_spend_limit',
      'purchase_limit',
      'total_spend_limit',
      'weekly_spend_limit',
      'monthly_spend_limit',
    ]) {
      expect(typeof d[f], f).toBe('string');
    }
    expect(typeof d.is_pin_set).toBe('boolean');
    expect(d.is_pin_set).toBe(true);
    expect(typeof d.card_is_primary).toBe('boolean');
    expect(d.card_is_primary).toBe(true);
    expect(d.status).toBe('ACTIVE');
    expect(d.truncated_card_number as string).toMatch(/4821$/);
    expect(d.truncated_card_number as string).not.toMatch(/^\d{16}$/);
  });

  it('token: data = [{url}]', async () => {
    const res = await raw(sb, 'GET', `${B}/card/token`, { headers: aliceCard('card_demo_alice_virtual') });
    expectSuccess(res);
    expect(res.body.data[0].url as string).toMatch(/^https?:\/\//);
  });

  it('configuration: enabled by default; PATCH toggles it', async () => {
    const hd = () => aliceCard('card_demo_alice_virtual');
    const get = await raw(sb, 'GET', `${B}/card/configuration`, { headers: hd() });
    expectSuccess(get);
    expect(get.body.data).toEqual([{ card_present_transaction_enabled: true }]);
    const patch = await raw(sb, 'PATCH', `${B}/card/configuration`, {
      headers: hd(),
      body: { card_present_transaction_enabled: false },
    });
    expectSuccess(patch);
    expect(patch.body.data).toEqual([{ card_present_transaction_enabled: false }]);
    const again = await raw(sb, 'GET', `${B}/card/configuration`, { headers: hd() });
    expect(again.body.data[0].card_present_transaction_enabled).toBe(false);
  });

  it('configuration PATCH rejects a missing or non-boolean value', async () => {
    const hd = () => aliceCard('card_demo_alice_virtual');
    expectError(await raw(sb, 'PATCH', `${B}/card/configuration`, { headers: hd(), body: {} }));
    expectError(
      await raw(sb, 'PATCH', `${B}/card/configuration`, {
        headers: hd(),
        body: { card_present_transaction_enabled: 'false' },
      }),
    );
  });

  const cardEndpoints: [string, string, Obj | undefined][] = [
    ['POST', '/card/activate', undefined],
    ['GET', '/card/details', undefined],
    ['GET', '/card/token', undefined],
    ['GET', '/card/configuration', undefined],
    ['PATCH', '/card/configuration', { card_present_transaction_enabled: true }],
    ['PATCH', '/card/status/update', { status: 'LOCKED' }],
    ['GET', '/card/setpin', undefined],
    ['GET', '/card/resetpin', undefined],
    ['GET', '/card/changepin', undefined],
    ['POST', '/card/3DS', { otp_delivery_method: 'SMS' }],
    ['GET', '/card/3DS', undefined],
    ['PATCH', '/card/3DS', { otp_delivery_method: 'SMS' }],
    ['DELETE', '/card/3DS', undefined],
    ['GET', '/card/limit', undefined],
    ['PATCH', '/card/limit', { amount_limit_period: 'DAY', amount_limit: 100, transaction_type: 'PURCHASE' }],
  ];
  for (const [method, path, body] of cardEndpoints) {
    for (const header of [
      'x-cardholder-id',
      'x-wallet-id',
      'x-card-id',
      'x-api-key',
      'x-product-id',
      'x-request-id',
    ]) {
      it(`${method} ${path} rejects a request without ${header}`, async () => {
        const res = await raw(sb, method, `${B}${path}`, {
          headers: { ...aliceCard('card_demo_alice_physical'), [header]: undefined },
          ...(body ? { body } : {}),
        });
        expectError(res);
      });
    }
    it(`${method} ${path} rejects an unknown card and a card of another cardholder`, async () => {
      const unknown = await raw(sb, method, `${B}${path}`, {
        headers: aliceCard('card_nope'),
        ...(body ? { body } : {}),
      });
      expectError(unknown);
      const foreign = await raw(sb, method, `${B}${path}`, {
        headers: aliceCard('card_demo_bruno_virtual'),
        ...(body ? { body } : {}),
      });
      expectError(foreign);
    });
  }
});

describe('family B: card states and transitions', () => {
  it('Activate Card: INACTIVE -> ACTIVE, data = [{status: ACTIVE}]', async () => {
    const res = await raw(sb, 'POST', `${B}/card/activate`, {
      headers: aliceCard('card_demo_alice_physical'),
    });
    expectSuccess(res);
    expect(res.body.data).toEqual([{ status: 'ACTIVE' }]);
    expect((await cardDetailsB('card_demo_alice_physical')).status).toBe('ACTIVE');
  });

  it('Activate Card refuses a STOLEN card (permanently blocked)', async () => {
    expectError(
      await raw(sb, 'POST', `${B}/card/activate`, { headers: aliceCard('card_demo_alice_stolen') }),
    );
    expect((await cardDetailsB('card_demo_alice_stolen')).status).toBe('STOLEN');
  });

  it('LOCKED -> ACTIVE via status update', async () => {
    const res = await setStatusB('card_demo_alice_locked', 'ACTIVE');
    expectSuccess(res);
    expect((await cardDetailsB('card_demo_alice_locked')).status).toBe('ACTIVE');
  });

  it('ACTIVE -> LOCKED -> ACTIVE', async () => {
    expectSuccess(await setStatusB('card_demo_alice_virtual', 'LOCKED'));
    expect((await cardDetailsB('card_demo_alice_virtual')).status).toBe('LOCKED');
    expectSuccess(await setStatusB('card_demo_alice_virtual', 'ACTIVE'));
    expect((await cardDetailsB('card_demo_alice_virtual')).status).toBe('ACTIVE');
  });

  it('setting ACTIVE on a card not LOCKED is refused (ACTIVE, INACTIVE, STOLEN)', async () => {
    for (const card of ['card_demo_alice_virtual', 'card_demo_alice_physical', 'card_demo_alice_stolen']) {
      const before = (await cardDetailsB(card)).status;
      expectError(await setStatusB(card, 'ACTIVE'));
      expect((await cardDetailsB(card)).status).toBe(before);
    }
  });

  for (const terminal of ['LOST', 'STOLEN', 'BLOCKED']) {
    it(`ACTIVE -> ${terminal}; the card cannot be reactivated afterwards`, async () => {
      expectSuccess(await setStatusB('card_demo_alice_virtual', terminal));
      expect((await cardDetailsB('card_demo_alice_virtual')).status).toBe(terminal);
      expectError(await setStatusB('card_demo_alice_virtual', 'ACTIVE'));
      expectError(
        await raw(sb, 'POST', `${B}/card/activate`, { headers: aliceCard('card_demo_alice_virtual') }),
      );
      expect((await cardDetailsB('card_demo_alice_virtual')).status).toBe(terminal);
    });
  }

  it('a LOCKED card may also be set LOST (any card -> LOST)', async () => {
    expectSuccess(await setStatusB('card_demo_alice_locked', 'LOST'));
    expect((await cardDetailsB('card_demo_alice_locked')).status).toBe('LOST');
  });

  it('status update rejects an unsupported value and a missing body', async () => {
    expectError(await setStatusB('card_demo_alice_virtual', 'FROZEN'));
    expectError(
      await raw(sb, 'PATCH', `${B}/card/status/update`, {
        headers: aliceCard('card_demo_alice_virtual'),
        body: {},
      }),
    );
  });

  it('the list reflects status changes', async () => {
    expectSuccess(await setStatusB('card_demo_alice_virtual', 'LOCKED'));
    const list = await listCardsB(
      HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' }),
    );
    expect((list.cards as Obj[]).find((c) => c.cardId === 'card_demo_alice_virtual')?.cardStatus).toBe(
      'LOCKED',
    );
  });
});

describe('family B: PIN', () => {
  for (const path of ['/card/setpin', '/card/resetpin', '/card/changepin']) {
    it(`GET ${path}: data = [{set_pin_url}]`, async () => {
      const res = await raw(sb, 'GET', `${B}${path}`, { headers: aliceCard('card_demo_alice_virtual') });
      expectSuccess(res);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0].set_pin_url as string).toMatch(/^https?:\/\//);
    });
  }
});

describe('family B: 3D Secure', () => {
  it('seeded enrollments: Alice EMAIL to her e-mail, Bruno SMS', async () => {
    const a = await raw(sb, 'GET', `${B}/card/3DS`, { headers: aliceCard('card_demo_alice_virtual') });
    expectSuccess(a);
    expect(a.body.data).toHaveLength(1);
    expect(a.body.data[0].otp_delivery_method).toBe('EMAIL');
    expect(a.body.data[0].destination).toBe(ALICE_EMAIL);
    expect(a.body.data[0].status).toBe('ACTIVE');
    const b = await raw(sb, 'GET', `${B}/card/3DS`, {
      headers: HB2({
        'x-cardholder-id': 'chb_demo_bruno',
        'x-wallet-id': 'wal_demo_bruno_usd',
        'x-card-id': 'card_demo_bruno_virtual',
      }),
    });
    expectSuccess(b);
    expect(b.body.data[0].otp_delivery_method).toBe('SMS');
    // documented choice: the full mobile number, +<mobileCountryCode><mobile>
    expect(b.body.data[0].destination).toBe('+5511987654321');
    expect(b.body.data[0].status).toBe('ACTIVE');
  });

  it('PATCH changes the method (data = []); DELETE unenrolls (data = []); POST re-enrolls (data = [])', async () => {
    const hd = () => aliceCard('card_demo_alice_virtual');
    const patch = await raw(sb, 'PATCH', `${B}/card/3DS`, {
      headers: hd(),
      body: { otp_delivery_method: 'SMS' },
    });
    expectSuccess(patch);
    expect(patch.body.data).toEqual([]);
    const got = await raw(sb, 'GET', `${B}/card/3DS`, { headers: hd() });
    expect(got.body.data[0].otp_delivery_method).toBe('SMS');

    const del = await raw(sb, 'DELETE', `${B}/card/3DS`, { headers: hd() });
    expectSuccess(del);
    expect(del.body.data).toEqual([]);
    const afterDel = await raw(sb, 'GET', `${B}/card/3DS`, { headers: hd() });
    // not enrolled any more: either a failure or no ACTIVE enrollment
    if (afterDel.status === 200) {
      expect((afterDel.body.data as Obj[]).some((e) => e.status === 'ACTIVE')).toBe(false);
    } else {
      expectError(afterDel);
    }

    const post = await raw(sb, 'POST', `${B}/card/3DS`, {
      headers: hd(),
      body: { otp_delivery_method: 'EMAIL' },
    });
    expectSuccess(post);
    expect(post.body.data).toEqual([]);
    const again = await raw(sb, 'GET', `${B}/card/3DS`, { headers: hd() });
    expect(again.body.data[0].otp_delivery_method).toBe('EMAIL');
    expect(again.body.data[0].destination).toBe(ALICE_EMAIL);
    expect(again.body.data[0].status).toBe('ACTIVE');
  });

  it('POST and PATCH reject a missing or unknown otp_delivery_method', async () => {
    const hd = () => aliceCard('card_demo_alice_virtual');
    expectError(await raw(sb, 'PATCH', `${B}/card/3DS`, { headers: hd(), body: {} }));
    expectError(
      await raw(sb, 'PATCH', `${B}/card/3DS`, { headers: hd(), body: { otp_delivery_method: 'PUSH' } }),
    );
    await raw(sb, 'DELETE', `${B}/card/3DS`, { headers: hd() });
    expectError(await raw(sb, 'POST', `${B}/card/3DS`, { headers: hd(), body: {} }));
    expectError(
      await raw(sb, 'POST', `${B}/card/3DS`, { headers: hd(), body: { otp_delivery_method: 'email' } }),
    );
  });
});

describe('family B: spend limits', () => {
  const hd = () => aliceCard('card_demo_alice_virtual');

  it('seeded cards carry the default limits (USD)', async () => {
    expectDefaultLimits(await limitsB(hd()));
  });

  it('PATCH replaces the limit: data = [], GET shows the new amount once', async () => {
    const res = await raw(sb, 'PATCH', `${B}/card/limit`, {
      headers: hd(),
      body: { amount_limit_period: 'DAY', amount_limit: 1234, transaction_type: 'PURCHASE' },
    });
    expectSuccess(res);
    expect(res.body.data).toEqual([]);
    const items = (await limitsB(hd())).filter(
      (i) => i.transaction_type === 'PURCHASE' && i.amount_limit_period === 'DAY',
    );
    expect(items).toHaveLength(1);
    expect(Number(items[0]?.amount_limit)).toBe(1234);
  });

  for (const period of ['DAY', 'WEEK', 'MONTH', 'YEAR', 'LIFETIME', 'TRANSACTION']) {
    it(`PURCHASE limit accepts period ${period}`, async () => {
      const res = await raw(sb, 'PATCH', `${B}/card/limit`, {
        headers: hd(),
        body: { amount_limit_period: period, amount_limit: 777, transaction_type: 'PURCHASE' },
      });
      expectSuccess(res);
      const item = (await limitsB(hd())).find(
        (i) => i.transaction_type === 'PURCHASE' && i.amount_limit_period === period,
      );
      expect(Number(item?.amount_limit)).toBe(777);
    });
  }

  for (const period of ['DAY', 'MONTH']) {
    it(`ATM limit accepts period ${period}`, async () => {
      const res = await raw(sb, 'PATCH', `${B}/card/limit`, {
        headers: hd(),
        body: { amount_limit_period: period, amount_limit: 900, transaction_type: 'ATM_CASH_WITHDRAWAL' },
      });
      expectSuccess(res);
    });
  }

  for (const period of ['WEEK', 'YEAR', 'LIFETIME', 'TRANSACTION']) {
    it(`ATM limit refuses period ${period}`, async () => {
      const res = await raw(sb, 'PATCH', `${B}/card/limit`, {
        headers: hd(),
        body: { amount_limit_period: period, amount_limit: 900, transaction_type: 'ATM_CASH_WITHDRAWAL' },
      });
      expectError(res);
    });
  }

  const bad: [string, Obj][] = [
    ['zero amount', { amount_limit: 0 }],
    ['negative amount', { amount_limit: -5 }],
    ['non-integer amount', { amount_limit: 10.5 }],
    ['string amount', { amount_limit: '100' }],
    ['unknown period', { amount_limit_period: 'HOUR' }],
    ['unknown transaction type', { transaction_type: 'TRANSFER' }],
  ];
  for (const [label, over] of bad) {
    it(`PATCH refuses ${label}`, async () => {
      const res = await raw(sb, 'PATCH', `${B}/card/limit`, {
        headers: hd(),
        body: { amount_limit_period: 'DAY', amount_limit: 100, transaction_type: 'PURCHASE', ...over },
      });
      expectError(res);
      expectDefaultLimits(await limitsB(hd()));
    });
  }

  for (const f of ['amount_limit_period', 'amount_limit', 'transaction_type']) {
    it(`PATCH refuses a missing ${f}`, async () => {
      const body: Obj = { amount_limit_period: 'DAY', amount_limit: 100, transaction_type: 'PURCHASE' };
      delete body[f];
      expectError(await raw(sb, 'PATCH', `${B}/card/limit`, { headers: hd(), body }));
    });
  }
});

describe('family B: KYC', () => {
  const KH = (id: string, extra: Headers = {}) =>
    HB2({ 'x-cardholderHash-id': id, 'x-client-id': 'client-1', ...extra });

  it('GET /kyc: completed and pending cardholders', async () => {
    const a = await raw(sb, 'GET', `${B}/kyc`, { headers: KH('chb_demo_alice') });
    expectSuccess(a);
    const ka = a.body.data[0] as Obj;
    expectKycView(ka);
    expect(ka.kycStatus).toBe('COMPLETED');
    expect(ka.kycLink).toBe('');
    const b = await raw(sb, 'GET', `${B}/kyc`, { headers: KH('chb_demo_bruno') });
    expectSuccess(b);
    const kb = b.body.data[0] as Obj;
    expectKycView(kb);
    expect(kb.kycStatus).toBe('PENDING');
    expect(kb.complianceStatus).toBe('IN_PROGRESS');
    expect((kb.kycLink as string).length).toBeGreaterThan(0);
  });

  it('GET /kyc/rfi returns the RFI details of Bruno', async () => {
    const res = await raw(sb, 'GET', `${B}/kyc/rfi`, { headers: KH('chb_demo_bruno') });
    expectSuccess(res);
    const rfi = (Array.isArray(res.body.data) ? res.body.data[0] : res.body.data) as Obj;
    const codes = rfi.services_declined_codes as Record<string, string[]>;
    expect(codes.address).toEqual(['ADDRESS_PROOF_EXPIRED']);
    expect(codes.document).toEqual(['DOCUMENT_IMAGE_BLURRED']);
    expect(typeof rfi.declined_reason).toBe('string');
  });

  it('GET /kyc/rfi/respond returns the KYC view with a link', async () => {
    const res = await raw(sb, 'GET', `${B}/kyc/rfi/respond`, { headers: KH('chb_demo_bruno') });
    expectSuccess(res);
    const k = res.body.data[0] as Obj;
    expectKycView(k);
    expect((k.kycLink as string).length).toBeGreaterThan(0);
  });

  it('completing KYC (control surface) turns the view COMPLETED', async () => {
    const done = await raw(sb, 'POST', '/_sandbox/issuing-b/kyc/chb_demo_bruno/complete');
    expect(done.status).toBe(200);
    const res = await raw(sb, 'GET', `${B}/kyc`, { headers: KH('chb_demo_bruno') });
    expect(res.body.data[0].kycStatus).toBe('COMPLETED');
    expect(res.body.data[0].kycLink).toBe('');
  });

  for (const path of ['/kyc', '/kyc/rfi', '/kyc/rfi/respond']) {
    it(`${path} rejects a missing x-cardholderHash-id and an unknown cardholder`, async () => {
      expectError(await raw(sb, 'GET', `${B}${path}`, { headers: HB2({ 'x-client-id': 'client-1' }) }));
      expectError(await raw(sb, 'GET', `${B}${path}`, { headers: KH('chb_nope') }));
    });
    for (const header of ['x-api-key', 'x-product-id', 'x-request-id']) {
      it(`${path} rejects a request without ${header}`, async () => {
        expectError(
          await raw(sb, 'GET', `${B}${path}`, { headers: { ...KH('chb_demo_bruno'), [header]: undefined } }),
        );
      });
    }
  }
});

// =============================================================================================
// Points the spec leaves open: the sandbox's documented choices (docs/sandbox.md), and
// cross-family consistency checks
// =============================================================================================

describe('documented choices and cross-family checks', () => {
  it('family A card creation: data is the object {id} (endpoint text), not an array', async () => {
    const res = await raw(sb, 'POST', `${A}/card`, { headers: HA(), body: cardA() });
    expectSuccess(res, 201);
    expect(Array.isArray(res.body.data)).toBe(false);
    expect(typeof res.body.data.id).toBe('string');
  });

  it('family A card creation: the body request_id is not an idempotency key (x-request-id is)', async () => {
    const body = cardA();
    const r1 = await raw(sb, 'POST', `${A}/card`, { headers: HA(), body });
    const r2 = await raw(sb, 'POST', `${A}/card`, { headers: HA(), body });
    expectSuccess(r1, 201);
    expectSuccess(r2, 201);
    expect(r2.body.data.id).not.toBe(r1.body.data.id);
    const r3 = await raw(sb, 'POST', `${A}/card`, {
      headers: HA(),
      body: { ...body, created_by: 'someone-else' },
    });
    expectSuccess(r3, 201);
  });

  it('x-request-id reused with a different request is refused; a refused request may be retried with its id', async () => {
    const headers = HB2({ 'x-cardholder-id': 'chb_demo_alice' });
    expectSuccess(await raw(sb, 'POST', `${B}/wallet`, { headers, body: { currency: 'EUR' } }));
    expectError(await raw(sb, 'POST', `${B}/wallet`, { headers, body: { currency: 'GBP' } }));
    const retry = HB2({ 'x-cardholder-id': 'chb_demo_alice' });
    expectError(await raw(sb, 'POST', `${B}/wallet`, { headers: retry, body: {} }));
    expectSuccess(await raw(sb, 'POST', `${B}/wallet`, { headers: retry, body: { currency: 'GBP' } }));
  });

  it('a wrong x-user-id is refused with 401 on family A', async () => {
    const res = await raw(sb, 'GET', `${A}/card/cardholder`, { headers: HA({ 'x-user-id': 'usr_other' }) });
    expectError(res, 401);
  });

  it('a wrong x-product-id is refused with 401 on family B', async () => {
    const res = await raw(sb, 'GET', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-product-id': 'other' }),
    });
    expectError(res, 401);
  });

  it('GETs and bodiless POSTs of family B require Content-Type too (400 naming it)', async () => {
    const get = await raw(sb, 'GET', `${B}/wallet`, {
      headers: { ...HB2({ 'x-cardholder-id': 'chb_demo_alice' }), 'content-type': undefined },
    });
    expectError(get);
    expect(get.body.message).toContain('Content-Type');
    const post = await raw(sb, 'POST', `${B}/card/activate`, {
      headers: { ...aliceCard('card_demo_alice_physical'), 'content-type': undefined },
    });
    expectError(post);
    expect(post.body.message).toContain('Content-Type');
  });

  it('a body with a non-JSON Content-Type is refused', async () => {
    const res = await raw(sb, 'POST', `${B}/wallet`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'content-type': 'text/plain' }),
      body: { currency: 'USD' },
    });
    expectError(res);
  });

  it('page_size above 100 is capped to 100; page 0 is refused', async () => {
    const capped = await raw(sb, 'GET', `${A}/card/cardholder?page_size=101`, { headers: HA() });
    expectSuccess(capped);
    expect((capped.body.data as Obj[]).length).toBe(capped.body.totalcount);
    const cards = await raw(sb, 'GET', `${B}/card/list?page=1&size=1000`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' }),
    });
    expectSuccess(cards);
    expect(cards.body.data[0].total_pages).toBe(1);
    expectError(await raw(sb, 'GET', `${A}/card/cardholder?page_num=0`, { headers: HA() }));
    expectError(
      await raw(sb, 'GET', `${B}/card/list?page=0&size=10`, {
        headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' }),
      }),
    );
  });

  it('family A: an absent middle_name reads as null (like title and name_on_card)', async () => {
    const id = await createCardholderA();
    const name = ((await getCardholderA(id)).individual as Obj).name as Obj;
    expect(name.middle_name).toBeNull();
    expect(name.title).toBeNull();
    expect(name.name_on_card).toBeNull();
  });

  it('family A: a new cardholder is SUCCESS with KYC PENDING and a submission link', async () => {
    const id = await createCardholderA();
    const ch = await getCardholderA(id);
    expect(ch.status).toBe('SUCCESS');
    expect(ch.kyc_status).toBe('PENDING');
    const kyc = await raw(sb, 'GET', `${A}/kyc`, { headers: HA({ 'x-cardholderHash-id': id }) });
    expect(kyc.body.data[0].kycStatus).toBe('PENDING');
    expect((kyc.body.data[0].kycLink as string).length).toBeGreaterThan(0);
  });

  it('family A: /kyc/rfi without an open RFI is one element with empty lists', async () => {
    const res = await raw(sb, 'GET', `${A}/kyc/rfi`, {
      headers: HA({ 'x-cardholderHash-id': 'cha_demo_ava' }),
    });
    expectSuccess(res);
    expect(res.body.data).toEqual([
      { services_declined_codes: { address: [], document: [] }, declined_reason: '' },
    ]);
  });

  it('family B: /kyc/rfi without an open RFI answers like family A (one element with empty lists)', async () => {
    const res = await raw(sb, 'GET', `${B}/kyc/rfi`, {
      headers: HB2({ 'x-cardholderHash-id': 'chb_demo_alice' }),
    });
    expectSuccess(res);
    expect(res.body.data).toEqual([
      { services_declined_codes: { address: [], document: [] }, declined_reason: '' },
    ]);
  });

  it('/kyc/rfi/respond without an open RFI answers the KYC view with a submission link (both families)', async () => {
    const a = await raw(sb, 'GET', `${A}/kyc/rfi/respond`, {
      headers: HA({ 'x-cardholderHash-id': 'cha_demo_ava' }),
    });
    expectSuccess(a);
    expectKycView(a.body.data[0] as Obj);
    expect((a.body.data[0].kycLink as string).length).toBeGreaterThan(0);
    const b = await raw(sb, 'GET', `${B}/kyc/rfi/respond`, {
      headers: HB2({ 'x-cardholderHash-id': 'chb_demo_alice' }),
    });
    expectSuccess(b);
    expectKycView(b.body.data[0] as Obj);
    expect((b.body.data[0].kycLink as string).length).toBeGreaterThan(0);
  });

  it('family A: assign refuses a card_currency that differs from the card', async () => {
    const res = await raw(sb, 'POST', `${A}/card/assign`, {
      headers: HA(),
      body: assignA({ card_number: '5300001000000038', card_currency: 'USD' }),
    });
    expectError(res);
    expectSuccess(
      await raw(sb, 'POST', `${A}/card/assign`, {
        headers: HA(),
        body: assignA({ card_number: '5300001000000038', card_currency: 'EUR' }),
      }),
    );
  });

  it('family A: PIN reset refuses a virtual card and an assigned card not yet activated', async () => {
    expectError(
      await raw(sb, 'POST', `${A}/card/pin?id=card_demo_ava_virtual`, {
        headers: HA(),
        body: { pin: '1234' },
      }),
    );
    const res = await raw(sb, 'POST', `${A}/card/assign`, { headers: HA(), body: assignA() });
    const cardId = res.body.data[0].card_id as string;
    expectError(
      await raw(sb, 'POST', `${A}/card/pin?id=${cardId}`, { headers: HA(), body: { pin: '1234' } }),
    );
  });

  it('family A: activation refuses a card already active', async () => {
    const act = await raw(sb, 'POST', `${A}/card/activate?id=card_demo_ava_physical`, {
      headers: HA(),
      body: { activation_code: '264088', pin: '1234' },
    });
    expectError(act);
  });

  it('family B: Activate Cardholder takes x-cardholderHash-id or x-cardholder-id; an active cardholder is a no-op', async () => {
    expectError(await raw(sb, 'POST', `${B}/cardholder/activate`, { headers: HB2() }));
    const ok = await raw(sb, 'POST', `${B}/cardholder/activate`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_chloe' }),
    });
    expectSuccess(ok);
    expect(ok.body.data).toEqual([{ status: 'ACTIVE' }]);
    expect((await getCardholderB('chb_demo_chloe')).status).toBe('ACTIVE');
    for (const header of ['x-cardholderHash-id', 'x-cardholder-id']) {
      const again = await raw(sb, 'POST', `${B}/cardholder/activate`, {
        headers: HB2({ [header]: 'chb_demo_alice' }),
      });
      expectSuccess(again);
      expect(again.body.data).toEqual([{ status: 'ACTIVE' }]);
    }
  });

  it('family B: a new cardholder with a KYC provider starts COMPLETED, without one PENDING', async () => {
    const withProvider = await createCardholderB(
      cardholderB({ kycProviderName: 'JUMIO', kycReferenceId: 'j-1' }),
    );
    const without = await createCardholderB();
    const k1 = await raw(sb, 'GET', `${B}/kyc`, { headers: HB2({ 'x-cardholderHash-id': withProvider }) });
    const k2 = await raw(sb, 'GET', `${B}/kyc`, { headers: HB2({ 'x-cardholderHash-id': without }) });
    expect(k1.body.data[0].kycStatus).toBe('COMPLETED');
    expect(k2.body.data[0].kycStatus).toBe('PENDING');
    expect((await getCardholderB(without)).status).toBe('ACTIVE');
  });

  it('family B: card details spend-limit strings follow the PURCHASE limits', async () => {
    const hd = aliceCard('card_demo_alice_virtual');
    const before = await cardDetailsB('card_demo_alice_virtual', hd);
    expect(before.purchase_limit).toBe('250000');
    expect(before.daily_spend_limit).toBe('500000');
    expect(before.monthly_spend_limit).toBe('2000000');
    expectSuccess(
      await raw(sb, 'PATCH', `${B}/card/limit`, {
        headers: aliceCard('card_demo_alice_virtual'),
        body: { amount_limit_period: 'DAY', amount_limit: 1234, transaction_type: 'PURCHASE' },
      }),
    );
    expect((await cardDetailsB('card_demo_alice_virtual')).daily_spend_limit).toBe('1234');
  });

  it('family B: setting the current status again is refused; ACTIVE -> INACTIVE -> Activate Card works', async () => {
    expectError(await setStatusB('card_demo_alice_locked', 'LOCKED'));
    expectSuccess(await setStatusB('card_demo_alice_virtual', 'INACTIVE'));
    expectError(await setStatusB('card_demo_alice_virtual', 'ACTIVE'));
    expectSuccess(
      await raw(sb, 'POST', `${B}/card/activate`, { headers: aliceCard('card_demo_alice_virtual') }),
    );
  });

  it('family B: a permanently blocked card can still be read but not changed', async () => {
    const hd = () => aliceCard('card_demo_alice_stolen');
    expectSuccess(await raw(sb, 'GET', `${B}/card/details`, { headers: hd() }));
    expectSuccess(await raw(sb, 'GET', `${B}/card/limit`, { headers: hd() }));
    expectError(await raw(sb, 'GET', `${B}/card/token`, { headers: hd() }));
    expectError(await raw(sb, 'GET', `${B}/card/setpin`, { headers: hd() }));
    expectError(
      await raw(sb, 'PATCH', `${B}/card/configuration`, {
        headers: hd(),
        body: { card_present_transaction_enabled: false },
      }),
    );
  });

  it('family B: 3DS GET on an unenrolled card is data = []; PATCH and DELETE there are refused', async () => {
    const hd = () => aliceCard('card_demo_alice_virtual');
    expectSuccess(await raw(sb, 'DELETE', `${B}/card/3DS`, { headers: hd() }));
    const got = await raw(sb, 'GET', `${B}/card/3DS`, { headers: hd() });
    expectSuccess(got);
    expect(got.body.data).toEqual([]);
    expectError(await raw(sb, 'DELETE', `${B}/card/3DS`, { headers: hd() }));
    expectError(
      await raw(sb, 'PATCH', `${B}/card/3DS`, { headers: hd(), body: { otp_delivery_method: 'SMS' } }),
    );
  });

  it('family B: changepin answers the iframe URL even without a PIN; setpin marks it set', async () => {
    const res = await raw(sb, 'POST', `${B}/card`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' }),
      body: { card_type: 'virtual' },
    });
    const cardId = res.body.data[0].cardId as string;
    expect((await cardDetailsB(cardId)).is_pin_set).toBe(false);
    const early = await raw(sb, 'GET', `${B}/card/changepin`, { headers: aliceCard(cardId) });
    expectSuccess(early);
    expect(early.body.data[0].set_pin_url as string).toMatch(/^https?:\/\//);
    expect((await cardDetailsB(cardId)).is_pin_set).toBe(false);
    expectSuccess(await raw(sb, 'GET', `${B}/card/setpin`, { headers: aliceCard(cardId) }));
    expect((await cardDetailsB(cardId)).is_pin_set).toBe(true);
    expectSuccess(await raw(sb, 'GET', `${B}/card/changepin`, { headers: aliceCard(cardId) }));
  });

  it('family B: a deactivated cardholder cannot read its wallets; transfers to it are refused', async () => {
    expectError(
      await raw(sb, 'GET', `${B}/wallet`, { headers: HB2({ 'x-cardholder-id': 'chb_demo_chloe' }) }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, {
        headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }),
        body: { email: 'chloe.martin@cards.demo.bankops.test', amount: 1, description: 'x' },
      }),
    );
  });

  it('family B: a transfer to oneself and an amount with 3 decimals are refused', async () => {
    const hd = () => HB2({ 'x-cardholder-id': 'chb_demo_alice' });
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, {
        headers: hd(),
        body: { email: 'alice.tan@cards.demo.bankops.test', amount: 1, description: 'x' },
      }),
    );
    expectError(
      await raw(sb, 'POST', `${B}/wallet/transfer`, {
        headers: hd(),
        body: { email: 'bruno.silva@cards.demo.bankops.test', amount: 1.005, description: 'x' },
      }),
    );
  });
  it('family A: name screening refuses a last_name of Sanctioned (documented trigger)', async () => {
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: HAcreate(),
      body: withPath(cardholderA(), 'individual.name.last_name', 'Sanctioned'),
    });
    expectError(res);
  });

  it('family A: English names may contain a hyphen and an apostrophe', async () => {
    const body = withPath(
      withPath(cardholderA(), 'individual.name.first_name', 'Mary-Jane'),
      'individual.name.last_name',
      "O'Neil",
    );
    await createCardholderA(body);
  });

  it('family A: a 3-letter country_code is refused', async () => {
    const res = await raw(sb, 'POST', `${A}/card/cardholder`, {
      headers: HAcreate(),
      body: cardholderA({ country_code: 'SGP' }),
    });
    expectError(res);
  });

  it('wallet history accepts from_date alone (only card transactions need both dates)', async () => {
    const a = await raw(sb, 'GET', `${A}/wallet/history?from_date=2026-10-10&size=100`, {
      headers: HA({ 'x-cardholder-id': 'cha_demo_ava', 'x-wallet-id': 'wal_demo_ava_usd' }),
    });
    expectSuccess(a);
    for (const t of a.body.data as Obj[]) expect((t.initiatedAt as string) >= '2026-10-10').toBe(true);
    const b = await raw(sb, 'GET', `${B}/wallet/history?to_date=2026-10-02&size=100`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' }),
    });
    expectSuccess(b);
    for (const t of b.body.data as Obj[])
      expect((t.initiatedAt as string).slice(0, 10) <= '2026-10-02').toBe(true);
  });

  it('family B: history with x-card-id of another wallet is refused', async () => {
    const res = await raw(sb, 'GET', `${B}/wallet/history`, {
      headers: aliceCard('card_demo_bruno_virtual'),
    });
    expectError(res);
  });

  it('family B: a new primary card makes the previous primary non-primary', async () => {
    const res = await raw(sb, 'POST', `${B}/card`, {
      headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', 'x-wallet-id': 'wal_demo_alice_usd' }),
      body: { card_type: 'virtual', is_primary: 'true' },
    });
    expectSuccess(res);
    expect((await cardDetailsB('card_demo_alice_virtual')).card_is_primary).toBe(false);
  });
});

// =============================================================================================
// Token expiry (moves the sandbox clock: keep last)
// =============================================================================================

describe('token lifetime (30 minutes) on issuing endpoints', () => {
  it('a token works at 29 min 50 s and is refused after 30 min (documented: 401)', async () => {
    const t = await tokenFor(sb);
    const hd = () => ({ ...h.HB(t) });
    expectSuccess(await raw(sb, 'GET', `${A}/card/cardholder?id=cha_demo_ava`, { headers: hd() }));
    await advanceClock(sb, 1790);
    expectSuccess(await raw(sb, 'GET', `${A}/card/cardholder?id=cha_demo_ava`, { headers: hd() }));
    await advanceClock(sb, 15);
    expectError(await raw(sb, 'GET', `${A}/card/cardholder?id=cha_demo_ava`, { headers: hd() }), 401);
    // a fresh token works again
    const fresh = await tokenFor(sb);
    expectSuccess(await raw(sb, 'GET', `${A}/card/cardholder?id=cha_demo_ava`, { headers: h.HB(fresh) }));
  });

  it('an expired token is refused on family A wallet endpoints and family B even though optional', async () => {
    const t = await tokenFor(sb);
    await advanceClock(sb, 1801);
    expectError(
      await raw(sb, 'GET', `${A}/wallet`, { headers: { ...h.HB(t), 'x-cardholder-id': 'cha_demo_ava' } }),
      401,
    );
    expectError(
      await raw(sb, 'GET', `${B}/wallet`, {
        headers: HB2({ 'x-cardholder-id': 'chb_demo_alice', authorization: `Bearer ${t}` }),
      }),
      401,
    );
    // without the token the optional-token endpoints still answer
    expectSuccess(
      await raw(sb, 'GET', `${B}/wallet`, { headers: HB2({ 'x-cardholder-id': 'chb_demo_alice' }) }),
    );
  });

  it('the token endpoint reports expiresIn 1800', async () => {
    const c = sb.credentials;
    const res = await raw(sb, 'POST', '/svc/api/v1/auth/token', {
      headers: {
        'content-type': 'application/json',
        'x-api-key': c.apiKey,
        'x-company-id': c.companyId,
        'x-user-id': c.userId,
        'x-request-id': randomUUID(),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.expiresIn).toBe(1800);
  });
});
