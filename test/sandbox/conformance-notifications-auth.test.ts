/**
 * Black-box conformance tests written from `service-interface.md` alone:
 *
 * 1. A table of all 64 operations of the interface. For each operation, every header the spec marks as
 *    required is dropped in turn (the request must be refused: 4xx, `status: "error"`), an invalid bearer
 *    token is tried where a token is required, and then the complete request must succeed with the spec's
 *    success code and response envelope. The refusals run first, so the final success also shows that the
 *    refused requests failed for the missing header and not because of the state.
 * 2. Authentication: the token endpoint, bearer required / optional / not needed, the user lookup.
 * 3. Notifications and Events: catalog, `w` and `n` subscriptions, the one-subscription-per-key rule.
 *
 * Ids are obtained through the interface itself. The only exceptions are values the interface cannot
 * give: physical-card secrets (card number, activation code, assignment code, which arrive with the card)
 * and a family B cardholder that holds funds (there is no endpoint that loads a wallet); for those the
 * sandbox's seeded inventory is used (see INVENTORY).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerSets, type RunningSandbox, raw, startTestSandbox, tokenFor } from '../helpers/sandbox.js';

type Obj = Record<string, unknown>;
type HeaderMap = Record<string, string | undefined>;

interface Answer {
  status: number;
  body: unknown;
}

const BK = '/svc/banking/api/v1';
const A = '/svc/issuing/api/v1';
const B = '/issuing/api/v1';
const N = '/svc/api/v1/notification';
const TOKEN_PATH = '/svc/api/v1/auth/token';

const CATALOG = [
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
];

/** RFC 7231 IMF-fixdate, e.g. `Mon, 05 Jan 2026 08:00:00 GMT`. */
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Values the interface offers no way to read: secrets delivered with a physical card, and a family B
 * cardholder whose wallet holds funds. Taken from the sandbox's seeded inventory.
 */
const INVENTORY = {
  familyA: { cardNumber: '5300001000000012', cardCurrency: 'USD', activationCode: '739215' },
  familyB: { lastFourDigit: '2468', code: 'K7Q2-9XMA' },
  fundedCardholderB: 'chb_demo_alice',
};

let sb: RunningSandbox;
let h: ReturnType<typeof headerSets>;
let token: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  h = headerSets(sb);
  token = await tokenFor(sb);
});

afterAll(async () => {
  await sb.close();
});

// ---------------------------------------------------------------------------------------------
// helpers

async function call(method: string, path: string, headers: HeaderMap, body?: unknown): Promise<Answer> {
  const res = await raw(sb, method, path, { headers, ...(body !== undefined ? { body } : {}) });
  const parsed: unknown = res.body;
  return { status: res.status, body: parsed };
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asObj(v: unknown, what: string): Obj {
  expect(isObj(v), `${what} should be an object: ${JSON.stringify(v)}`).toBe(true);
  return v as Obj;
}

function asArr(v: unknown, what: string): unknown[] {
  expect(Array.isArray(v), `${what} should be an array: ${JSON.stringify(v)}`).toBe(true);
  return v as unknown[];
}

function asStr(v: unknown, what: string): string {
  expect(typeof v, `${what} should be a string: ${JSON.stringify(v)}`).toBe('string');
  return v as string;
}

/** `data` of an issuing answer that the spec gives as `[{...}]` (one element). */
function firstOf(body: Obj, what: string): Obj {
  const data = asArr(body.data, `${what}: data`);
  expect(data.length, `${what}: data length`).toBeGreaterThanOrEqual(1);
  return asObj(data[0], `${what}: data[0]`);
}

/** Removes a header whatever the case of its name. */
function without(headers: HeaderMap, name: string): HeaderMap {
  const out: HeaderMap = {};
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== name.toLowerCase()) out[k] = v;
  return out;
}

const ids: Record<string, string> = {};

/** An id obtained by an earlier step of the table; a clear message when that step failed. */
function need(key: string): string {
  const v = ids[key];
  if (v === undefined) throw new Error(`prerequisite "${key}" is missing: an earlier step failed`);
  return v;
}

function uniqueEmail(tag: string): string {
  return `qa.${tag}.${randomUUID().slice(0, 8)}@example.com`;
}

// ---------- header sets (spec: Endpoints / shorthand, and Authentication)

function tokenHeaders(): HeaderMap {
  const c = sb.credentials;
  return {
    'content-type': 'application/json',
    'x-api-key': c.apiKey,
    'x-company-id': c.companyId,
    'x-user-id': c.userId,
    'x-request-id': randomUUID(),
  };
}

/** HB / HA: all required, bearer included. */
function HB(extra: HeaderMap = {}): HeaderMap {
  return { ...h.HB(token), ...extra };
}

/** Family A wallet endpoints: HA with the bearer token left out (it is optional there). */
function HAwallet(extra: HeaderMap = {}): HeaderMap {
  return without(HB(extra), 'authorization');
}

/** HB2 (family B): no bearer, no x-user-id. */
function HB2(extra: HeaderMap = {}): HeaderMap {
  return { ...h.HB2(), ...extra };
}

function NOTIFY(): HeaderMap {
  return h.NOTIFY();
}

const HB_REQUIRED = [
  'x-api-key',
  'x-product-id',
  'x-request-id',
  'x-user-id',
  'Content-Type',
  'Authorization',
];
const HA_WALLET_REQUIRED = ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'Content-Type'];
const HB2_REQUIRED = ['x-api-key', 'x-product-id', 'x-request-id', 'Content-Type'];

// ---------- envelopes

type Envelope = 'token' | 'banking' | 'issuing' | 'notification' | 'bare-array' | 'not-shown';

function expectSuccessEnvelope(res: Answer, code: number, envelope: Envelope, allowTotalcount: boolean): Obj {
  expect(res.status, JSON.stringify(res.body)).toBe(code);
  if (envelope === 'bare-array') {
    asArr(res.body, 'body');
    return {};
  }
  const body = asObj(res.body, 'body');
  switch (envelope) {
    case 'token':
      expect(body.status).not.toBe('error');
      asObj(body.data, 'data');
      break;
    case 'banking':
      // Banking: code (integer, equals the HTTP status), status SUCCESS, message (string), data.
      expect(body.code).toBe(code);
      expect(body.status).toBe('SUCCESS');
      if (body.message !== undefined) asStr(body.message, 'message');
      expect(body).toHaveProperty('data');
      expect(typeof body.data === 'object' && body.data !== null, 'data is an object or array').toBe(true);
      break;
    case 'issuing':
      // Issuing: status (casing differs per endpoint), message, code (integer), totalcount only on the A list.
      expect(asStr(body.status, 'status').toLowerCase()).toBe('success');
      asStr(body.message, 'message');
      expect(Number.isInteger(body.code), 'code is an integer').toBe(true);
      if (!allowTotalcount) expect(body).not.toHaveProperty('totalcount');
      break;
    case 'notification':
      expect(['success', 'SUCCESS']).toContain(body.status);
      break;
    case 'not-shown':
      expect(body.status).not.toBe('error');
      break;
  }
  return body;
}

/** A refused request: 4xx and `status: "error"` in the envelope (the code is not asserted beyond 4xx). */
function expectRefused(res: Answer, envelope: Envelope): void {
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  const body = asObj(res.body, 'error body');
  expect(body.status).toBe('error');
  if (body.message !== undefined) asStr(body.message, 'message');
  if (envelope === 'banking' || envelope === 'token') expect(body.code).toBe(res.status);
  if (envelope === 'issuing' || envelope === 'not-shown') expect(Number.isInteger(body.code)).toBe(true);
}

// ---------- request bodies

function achBeneficiary(): Obj {
  return {
    companyCode: sb.credentials.companyId,
    entityType: 'INDIVIDUAL',
    displayName: 'Jane Doe',
    firstName: 'Jane',
    lastName: 'Doe',
    currency: 'USD',
    country: 'US',
    address: {
      country: 'US',
      city: 'New York',
      streetAddress: '1 Main Street',
      postalCode: '10001',
      state: 'NY',
    },
    bank: {
      bankName: 'Chase Bank',
      bankAddress: '270 Park Avenue, New York',
      bankCountry: 'US',
      accountHolder: 'Jane Doe',
      accountCurrency: 'USD',
      accountNumber: '123456789',
      routingCodeType: 'ach',
      routingCodeValue: '021000021',
      swiftCode: 'CHASUS33',
      extras: { clearingSystem: 'ACH' },
    },
    extras: { paymentMethod: 'LOCAL' },
  };
}

function cardholderA(): Obj {
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
    created_by: 'conformance',
  };
}

function cardholderB(email: string): Obj {
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
    email,
    deliveryAddress1: '10 Anson Road',
    deliveryAddress2: '#10-01 Tower',
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
  };
}

function notifyKey(over: Obj = {}): Obj {
  const c = sb.credentials;
  return {
    agent_code: c.agentCode,
    subagent_code: c.subagentCode,
    program_code: c.programCode,
    company_code: c.companyId,
    ...over,
  };
}

function expectKycView(k: Obj): void {
  for (const f of ['kycStatus', 'kycLink', 'documentType', 'complianceStatus', 'email'])
    expect(k).toHaveProperty(f);
}

function expectWallet(w: Obj): void {
  asStr(w.id, 'wallet id');
  asStr(w.currency, 'wallet currency');
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
}

// ---------------------------------------------------------------------------------------------
// The operation table

type Bearer = 'required' | 'optional' | 'none';

interface Op {
  /** e.g. `POST /svc/banking/api/v1/beneficiaries` (the spec's path template). */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: () => string;
  /** The complete set of headers the spec asks for (without a bearer token where it is optional). */
  headers: () => HeaderMap;
  /** Header names the spec marks as required; each is dropped in turn. */
  required: string[];
  bearer: Bearer;
  body?: () => unknown;
  /** Obtains, through the interface, what the request needs (runs once before the refusals). */
  prepare?: () => Promise<void>;
  code: 200 | 201 | 202;
  envelope: Envelope;
  /** Spec-stated response details; also records ids for later steps. */
  check?: (body: Obj, res: Answer) => void;
}

const co = () => sb.credentials.companyId;

const OPS: Op[] = [
  // ------------------------------------------------------------------ authentication and users
  {
    name: `POST ${TOKEN_PATH}`,
    method: 'POST',
    path: () => TOKEN_PATH,
    headers: tokenHeaders,
    required: ['x-api-key', 'x-company-id', 'x-request-id', 'x-user-id'],
    bearer: 'none',
    code: 200,
    envelope: 'token',
    check: (b) => {
      const d = asObj(b.data, 'data');
      for (const f of ['token', 'tokenType', 'expiresIn', 'userId', 'companyCode', 'email'])
        expect(d).toHaveProperty(f);
      expect(asStr(d.token, 'token').split('.')).toHaveLength(3);
      expect(d.expiresIn).toBe(1800);
      expect(d.userId).toBe(sb.credentials.userId);
      expect(d.companyCode).toBe(sb.credentials.companyId);
    },
  },
  {
    name: `GET ${BK}/users`,
    method: 'GET',
    path: () => `${BK}/users?email=${encodeURIComponent(sb.credentials.userEmail)}`,
    headers: () => h.USERS(),
    required: ['x-api-key', 'x-product-id', 'x-request-id'],
    bearer: 'none',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const u = asObj(b.data, 'data');
      expect(u.userId).toBe(sb.credentials.userId);
      expect(u.companyCode).toBe(sb.credentials.companyId);
      expect(u.email).toBe(sb.credentials.userEmail);
    },
  },
  // ------------------------------------------------------------------ accounts
  {
    name: `GET ${BK}/accounts`,
    method: 'GET',
    path: () => `${BK}/accounts?companyCode=${co()}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const d = asObj(b.data, 'data');
      const items = asArr(d.items, 'items');
      for (const f of ['pageSize', 'pageNumber', 'total']) expect(d).toHaveProperty(f);
      expect(items.length).toBeGreaterThan(0);
      const first = asObj(items[0], 'items[0]');
      ids.account = asStr(first.accountId, 'accountId');
      const usd = items.map((i) => asObj(i, 'item')).find((i) => i.currency === 'USD');
      if (usd) ids.usdAccount = asStr(usd.accountId, 'accountId');
    },
  },
  {
    name: `GET ${BK}/accounts/{accountID}`,
    method: 'GET',
    path: () => `${BK}/accounts/${need('account')}?companyCode=${co()}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const d = asObj(b.data, 'data');
      expect(d.accountId).toBe(need('account'));
      expect(typeof d.bankDetailsAvailable).toBe('boolean');
      expect(typeof d.balanceAvailable).toBe('boolean');
    },
  },
  {
    name: `GET ${BK}/accounts/balances`,
    method: 'GET',
    path: () => `${BK}/accounts/balances?companyCode=${co()}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const d = asObj(b.data, 'data');
      asStr(d.userId, 'userId');
      asArr(d.balances, 'balances');
      asArr(d.errors, 'errors');
    },
  },
  {
    // Response body: not shown. Only the code and the banking envelope are asserted.
    name: `GET ${BK}/accounts/{accountID}/balance`,
    method: 'GET',
    path: () => `${BK}/accounts/${need('account')}/balance?companyCode=${co()}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
  },
  // ------------------------------------------------------------------ beneficiaries
  {
    name: `GET ${BK}/beneficiaries/options`,
    method: 'GET',
    path: () => `${BK}/beneficiaries/options`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const opts = asArr(b.data, 'data');
      expect(opts.length).toBeGreaterThan(0);
      for (const o of opts) {
        const opt = asObj(o, 'option');
        expect(['INDIVIDUAL', 'COMPANY']).toContain(opt.entityType);
        expect(['LOCAL', 'SWIFT']).toContain(opt.paymentMethod);
      }
    },
  },
  {
    name: `GET ${BK}/beneficiaries/schema`,
    method: 'GET',
    path: () =>
      `${BK}/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const s = asObj(b.data, 'data');
      expect(s.type).toBe('object');
      asArr(s.required, 'required');
      asObj(s.properties, 'properties');
    },
  },
  {
    name: `POST ${BK}/beneficiaries`,
    method: 'POST',
    path: () => `${BK}/beneficiaries`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: achBeneficiary,
    code: 200,
    envelope: 'banking',
    check: (b) => {
      ids.beneficiary = asStr(asObj(b.data, 'data').beneficiary_id, 'beneficiary_id');
    },
  },
  // ------------------------------------------------------------------ conversions
  {
    name: `POST ${BK}/conversions/quote`,
    method: 'POST',
    path: () => `${BK}/conversions/quote`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({
      companyCode: co(),
      direction: 'FX_CONVERT',
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      amount: 100,
      side: 'SOURCE',
    }),
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const q = asObj(b.data, 'data');
      ids.fxQuote = asStr(q.quoteId, 'quoteId');
      expect(q.direction).toBe('FX_CONVERT');
      expect(asStr(q.expiresAt, 'expiresAt')).toMatch(ISO_UTC);
    },
  },
  {
    name: `POST ${BK}/conversions`,
    method: 'POST',
    path: () => `${BK}/conversions`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({ companyCode: co(), quoteId: need('fxQuote') }),
    code: 202,
    envelope: 'banking',
    check: (b) => {
      const d = asObj(b.data, 'data');
      ids.conversion = asStr(d.conversionId, 'conversionId');
      expect(d).toHaveProperty('externalReference');
      expect(d.status).toBe('EXECUTING');
    },
  },
  {
    name: `GET ${BK}/conversions/{conversionID}`,
    method: 'GET',
    path: () => `${BK}/conversions/${need('conversion')}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const d = asObj(b.data, 'data');
      expect(d.conversionId).toBe(need('conversion'));
      expect(d).toHaveProperty('externalReference');
      expect(d).toHaveProperty('status');
    },
  },
  // ------------------------------------------------------------------ payouts
  {
    name: `POST ${BK}/payouts/quote`,
    method: 'POST',
    path: () => `${BK}/payouts/quote`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({
      companyCode: co(),
      beneficiaryId: need('beneficiary'),
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      destinationAssetCode: 'USD',
      sourceAccountId: need('usdAccount'),
      amount: 100,
      side: 'SOURCE',
    }),
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const q = asObj(b.data, 'data');
      ids.payoutQuote = asStr(q.quoteId, 'quoteId');
      expect(typeof q.totalDebitAmount).toBe('number');
      expect(asStr(q.expiresAt, 'expiresAt')).toMatch(ISO_UTC);
    },
  },
  {
    name: `POST ${BK}/payouts`,
    method: 'POST',
    path: () => `${BK}/payouts`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({ companyCode: co(), quoteId: need('payoutQuote'), purposeCode: 'TAXES' }),
    code: 202,
    envelope: 'banking',
    check: (b) => {
      const d = asObj(b.data, 'data');
      ids.payout = asStr(d.payoutId, 'payoutId');
      expect(d).toHaveProperty('externalReference');
      expect(d.status).toBe('PENDING');
    },
  },
  {
    name: `GET ${BK}/payouts/{payoutID}`,
    method: 'GET',
    path: () => `${BK}/payouts/${need('payout')}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'banking',
    check: (b) => {
      const d = asObj(b.data, 'data');
      expect(d.payoutId).toBe(need('payout'));
      expect(d).toHaveProperty('externalReference');
      expect(d).toHaveProperty('status');
    },
  },
  // ------------------------------------------------------------------ issuing family A
  {
    name: `POST ${A}/card/cardholder`,
    method: 'POST',
    path: () => `${A}/card/cardholder`,
    headers: () =>
      HB({ 'agent-code': sb.credentials.agentCode, 'subagent-code': sb.credentials.subagentCode }),
    required: [...HB_REQUIRED, 'agent-code', 'subagent-code'],
    bearer: 'required',
    body: cardholderA,
    code: 201,
    envelope: 'issuing',
    check: (b) => {
      const data = asArr(b.data, 'data');
      expect(data).toHaveLength(1);
      ids.cardholderA = asStr(asObj(data[0], 'data[0]').id, 'id');
    },
  },
  {
    name: `GET ${A}/card/cardholder (listing)`,
    method: 'GET',
    path: () => `${A}/card/cardholder?page_num=1&page_size=10`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      expect(Number.isInteger(b.totalcount), 'totalcount is an integer').toBe(true);
      expect(Number(b.totalcount)).toBeGreaterThanOrEqual(1);
      asArr(b.data, 'data');
    },
  },
  {
    name: `GET ${A}/card/cardholder?id= (single)`,
    method: 'GET',
    path: () => `${A}/card/cardholder?id=${encodeURIComponent(need('cardholderA'))}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      expect(firstOf(b, 'cardholder').id).toBe(need('cardholderA'));
    },
  },
  {
    name: `PATCH ${A}/card/cardholder?id={cardholder_id}`,
    method: 'PATCH',
    path: () => `${A}/card/cardholder?id=${encodeURIComponent(need('cardholderA'))}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({ mobile_number: '87654321', country_code: 'SG', updated_by: 'conformance' }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      // "200: {status, message, code} without data"
      expect(b).not.toHaveProperty('data');
    },
  },
  {
    name: `POST ${A}/card`,
    method: 'POST',
    path: () => `${A}/card`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({
      card_type: 'VIRTUAL',
      card_holder_id: need('cardholderA'),
      created_by: 'conformance',
      request_id: randomUUID(),
      program: { purpose: 'COMMERCIAL' },
      authorization_controls: {
        allowed_transaction_count: 'MULTIPLE',
        transaction_limits: { currency: 'USD', limits: [{ amount: 500, interval: 'PER_TRANSACTION' }] },
      },
      is_personalized: false,
    }),
    code: 201,
    envelope: 'issuing',
    check: (b) => {
      // "201: data = {id}"
      ids.cardA = asStr(asObj(b.data, 'data').id, 'id');
    },
  },
  {
    name: `POST ${A}/card/assign`,
    method: 'POST',
    path: () => `${A}/card/assign`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({
      cardholder_id: need('cardholderA'),
      card_number: INVENTORY.familyA.cardNumber,
      card_currency: INVENTORY.familyA.cardCurrency,
      card_mode: 'SINGLE',
      createdBy: 'conformance',
    }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      ids.physicalA = asStr(firstOf(b, 'assign').card_id, 'card_id');
    },
  },
  {
    name: `POST ${A}/card/activate?id={card_id}`,
    method: 'POST',
    path: () => `${A}/card/activate?id=${encodeURIComponent(need('physicalA'))}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({ activation_code: INVENTORY.familyA.activationCode, pin: '1234' }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      for (const f of ['code', 'status', 'message']) expect(b).toHaveProperty(f);
    },
  },
  {
    // Response of the family A PIN reset endpoint: not shown.
    name: `POST ${A}/card/pin?id={card_id}`,
    method: 'POST',
    path: () => `${A}/card/pin?id=${encodeURIComponent(need('physicalA'))}`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    body: () => ({ pin: '5678' }),
    code: 200,
    envelope: 'not-shown',
  },
  {
    name: `POST ${A}/wallet`,
    method: 'POST',
    path: () => `${A}/wallet`,
    headers: () => HAwallet({ 'x-cardholder-id': need('cardholderA') }),
    required: [...HA_WALLET_REQUIRED, 'x-cardholder-id'],
    bearer: 'optional',
    body: () => ({ currency: 'USD' }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const w = firstOf(b, 'wallet');
      expectWallet(w);
      expect(w.currency).toBe('USD');
      ids.walletA = asStr(w.id, 'id');
    },
  },
  {
    name: `GET ${A}/wallet`,
    method: 'GET',
    path: () => `${A}/wallet`,
    headers: () => HAwallet({ 'x-cardholder-id': need('cardholderA') }),
    required: [...HA_WALLET_REQUIRED, 'x-cardholder-id'],
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const wallets = asArr(b.data, 'data').map((w) => asObj(w, 'wallet'));
      for (const w of wallets) expectWallet(w);
      expect(wallets.map((w) => w.id)).toContain(need('walletA'));
    },
  },
  {
    name: `GET ${A}/wallet/history`,
    method: 'GET',
    path: () => `${A}/wallet/history?page=1&size=10`,
    headers: () => HAwallet({ 'x-cardholder-id': need('cardholderA'), 'x-wallet-id': need('walletA') }),
    required: [...HA_WALLET_REQUIRED, 'x-cardholder-id', 'x-wallet-id'],
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      asArr(b.data, 'data');
    },
  },
  {
    name: `GET ${A}/kyc`,
    method: 'GET',
    path: () => `${A}/kyc`,
    headers: () => HB({ 'x-cardholderHash-id': need('cardholderA') }),
    required: [...HB_REQUIRED, 'x-cardholderHash-id'],
    bearer: 'required',
    code: 200,
    envelope: 'issuing',
    check: (b) => expectKycView(firstOf(b, 'kyc')),
  },
  {
    name: `GET ${A}/kyc/rfi`,
    method: 'GET',
    path: () => `${A}/kyc/rfi`,
    headers: () => HB({ 'x-cardholderHash-id': need('cardholderA') }),
    required: [...HB_REQUIRED, 'x-cardholderHash-id'],
    bearer: 'required',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const rfi = Array.isArray(b.data) ? firstOf(b, 'rfi') : asObj(b.data, 'data');
      asObj(rfi.services_declined_codes, 'services_declined_codes');
      expect(rfi).toHaveProperty('declined_reason');
    },
  },
  {
    name: `GET ${A}/kyc/rfi/respond`,
    method: 'GET',
    path: () => `${A}/kyc/rfi/respond`,
    headers: () => HB({ 'x-cardholderHash-id': need('cardholderA') }),
    required: [...HB_REQUIRED, 'x-cardholderHash-id'],
    bearer: 'required',
    code: 200,
    envelope: 'issuing',
    check: (b) => expectKycView(firstOf(b, 'respond')),
  },
  {
    name: `GET ${A}/card/transaction`,
    method: 'GET',
    path: () => `${A}/card/transaction?id=${encodeURIComponent(need('cardA'))}&page_num=1&page_size=10`,
    headers: HB,
    required: HB_REQUIRED,
    bearer: 'required',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      // "an object for the family A card transaction list": {has_more, items[]}
      const d = asObj(b.data, 'data');
      expect(typeof d.has_more).toBe('boolean');
      asArr(d.items, 'items');
    },
  },
  // ------------------------------------------------------------------ issuing family B: cardholders
  {
    name: `POST ${B}/cardholder`,
    method: 'POST',
    path: () => `${B}/cardholder`,
    headers: () =>
      HB2({ 'x-agent-code': sb.credentials.agentCode, 'x-subagent-code': sb.credentials.subagentCode }),
    required: [...HB2_REQUIRED, 'x-agent-code', 'x-subagent-code'],
    bearer: 'optional',
    prepare: async () => {
      ids.cardholderBEmail = uniqueEmail('b');
    },
    body: () => cardholderB(need('cardholderBEmail')),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const data = asArr(b.data, 'data');
      expect(data).toHaveLength(1);
      ids.cardholderB = asStr(asObj(data[0], 'data[0]').id, 'id');
    },
  },
  {
    name: `GET ${B}/cardholder`,
    method: 'GET',
    path: () => `${B}/cardholder`,
    headers: () => HB2({ 'x-cardholderHash-id': need('cardholderB') }),
    required: [...HB2_REQUIRED, 'x-cardholderHash-id'],
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const ch = firstOf(b, 'cardholder');
      expect(ch.id).toBe(need('cardholderB'));
      expect(ch.email).toBe(need('cardholderBEmail'));
      expect(ch).toHaveProperty('createAt');
      expect(ch).toHaveProperty('status');
    },
  },
  {
    name: `PATCH ${B}/cardholder`,
    method: 'PATCH',
    path: () => `${B}/cardholder`,
    headers: () => HB2({ 'x-cardholderHash-id': need('cardholderB') }),
    required: [...HB2_REQUIRED, 'x-cardholderHash-id'],
    bearer: 'optional',
    body: () => ({ deliveryCity: 'Singapore City' }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      // "data = array with one message string"
      const data = asArr(b.data, 'data');
      expect(data).toHaveLength(1);
      asStr(data[0], 'data[0]');
    },
  },
  {
    // Headers, body and response: not shown. Sent with the HB2 set and the cardholder in both identity
    // headers the spec uses for cardholders; only HB2's required headers are dropped.
    name: `POST ${B}/cardholder/activate`,
    method: 'POST',
    path: () => `${B}/cardholder/activate`,
    headers: () =>
      HB2({ 'x-cardholderHash-id': need('cardholderB'), 'x-cardholder-id': need('cardholderB') }),
    required: HB2_REQUIRED,
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
  },
  // ------------------------------------------------------------------ family B: wallets
  {
    name: `POST ${B}/wallet`,
    method: 'POST',
    path: () => `${B}/wallet`,
    headers: () => HB2({ 'x-cardholder-id': need('cardholderB') }),
    required: [...HB2_REQUIRED, 'x-cardholder-id'],
    bearer: 'optional',
    body: () => ({ currency: 'USD' }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const w = firstOf(b, 'wallet');
      expectWallet(w);
      ids.walletB = asStr(w.id, 'id');
    },
  },
  {
    name: `GET ${B}/wallet`,
    method: 'GET',
    path: () => `${B}/wallet`,
    headers: () => HB2({ 'x-cardholder-id': need('cardholderB') }),
    required: [...HB2_REQUIRED, 'x-cardholder-id'],
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const wallets = asArr(b.data, 'data').map((w) => asObj(w, 'wallet'));
      expect(wallets.map((w) => w.id)).toContain(need('walletB'));
    },
  },
  {
    name: `GET ${B}/wallet/history`,
    method: 'GET',
    path: () => `${B}/wallet/history?page=1&size=10`,
    headers: () => HB2({ 'x-cardholder-id': need('cardholderB'), 'x-wallet-id': need('walletB') }),
    required: [...HB2_REQUIRED, 'x-cardholder-id', 'x-wallet-id'],
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      asArr(b.data, 'data');
    },
  },
  {
    name: `POST ${B}/wallet/transfer`,
    method: 'POST',
    path: () => `${B}/wallet/transfer`,
    headers: () => HB2({ 'x-cardholder-id': INVENTORY.fundedCardholderB }),
    required: [...HB2_REQUIRED, 'x-cardholder-id'],
    bearer: 'optional',
    body: () => ({ email: need('cardholderBEmail'), amount: 1.5, description: 'conformance transfer' }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      asStr(firstOf(b, 'transfer').id, 'id');
    },
  },
  // ------------------------------------------------------------------ family B: cards
  {
    name: `POST ${B}/card`,
    method: 'POST',
    path: () => `${B}/card`,
    headers: () => HB2({ 'x-cardholder-id': need('cardholderB'), 'x-wallet-id': need('walletB') }),
    required: [...HB2_REQUIRED, 'x-cardholder-id', 'x-wallet-id'],
    bearer: 'optional',
    body: () => ({ card_type: 'virtual' }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      ids.cardB = asStr(firstOf(b, 'card').cardId, 'cardId');
    },
  },
  {
    name: `POST ${B}/card/assign`,
    method: 'POST',
    path: () => `${B}/card/assign`,
    headers: () => HB2({ 'x-cardholder-id': need('cardholderB'), 'x-wallet-id': need('walletB') }),
    required: [...HB2_REQUIRED, 'x-cardholder-id', 'x-wallet-id'],
    bearer: 'optional',
    body: () => ({ last_four_digit: INVENTORY.familyB.lastFourDigit, code: INVENTORY.familyB.code }),
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      ids.physicalB = asStr(firstOf(b, 'assign').cardId, 'cardId');
    },
  },
  {
    name: `GET ${B}/card/list`,
    method: 'GET',
    path: () => `${B}/card/list?page=1&size=10`,
    headers: () => HB2({ 'x-cardholder-id': need('cardholderB'), 'x-wallet-id': need('walletB') }),
    required: [...HB2_REQUIRED, 'x-cardholder-id', 'x-wallet-id'],
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const w = firstOf(b, 'list');
      for (const f of ['total_count', 'page', 'total_pages']) expect(w).toHaveProperty(f);
      const cards = asArr(w.cards, 'cards').map((c) => asObj(c, 'card'));
      // "Returns the service and physical cards."
      const virtual = cards.find((c) => c.cardId === need('cardB'));
      const physical = cards.find((c) => c.cardId === need('physicalB'));
      expect(virtual?.cardType).toBe('VIRTUAL');
      expect(physical?.cardType).toBe('PHYSICAL');
    },
  },
];

/** Family B endpoints that take x-cardholder-id, x-wallet-id and x-card-id (all required). */
function cardOp(
  method: Op['method'],
  sub: string,
  rest: Pick<Op, 'code' | 'envelope'> & Partial<Pick<Op, 'body' | 'check'>>,
): Op {
  return {
    name: `${method} ${B}${sub}`,
    method,
    path: () => `${B}${sub}`,
    headers: () =>
      HB2({
        'x-cardholder-id': need('cardholderB'),
        'x-wallet-id': need('walletB'),
        'x-card-id': need('cardB'),
      }),
    required: [...HB2_REQUIRED, 'x-cardholder-id', 'x-wallet-id', 'x-card-id'],
    bearer: 'optional',
    ...rest,
  };
}

function pinUrl(b: Obj): void {
  asStr(firstOf(b, 'pin').set_pin_url, 'set_pin_url');
}

function emptyData(b: Obj): void {
  expect(b.data).toEqual([]);
}

OPS.push(
  cardOp('GET', '/card/details', {
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const d = firstOf(b, 'details');
      expect(typeof d.is_pin_set).toBe('boolean');
      expect(typeof d.card_is_primary).toBe('boolean');
      for (const f of ['printing_state', 'created_at', 'card_type', 'truncated_card_number', 'status'])
        expect(d).toHaveProperty(f);
    },
  }),
  cardOp('GET', '/card/token', {
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      asStr(firstOf(b, 'token').url, 'url');
    },
  }),
  cardOp('GET', '/card/configuration', {
    code: 200,
    envelope: 'issuing',
    // "enabled by default when a card is created"
    check: (b) => expect(firstOf(b, 'configuration').card_present_transaction_enabled).toBe(true),
  }),
  cardOp('PATCH', '/card/configuration', {
    code: 200,
    envelope: 'issuing',
    body: () => ({ card_present_transaction_enabled: false }),
    check: (b) => expect(firstOf(b, 'configuration').card_present_transaction_enabled).toBe(false),
  }),
  // Request body and response of Update Card Status: not shown. Only the success envelope is asserted.
  cardOp('PATCH', '/card/status/update', {
    code: 200,
    envelope: 'issuing',
    body: () => ({ status: 'INACTIVE' }),
  }),
  // INACTIVE -> ACTIVE; "response status is ACTIVE"
  cardOp('POST', '/card/activate', {
    code: 200,
    envelope: 'issuing',
    check: (b) => expect(firstOf(b, 'activate').status).toBe('ACTIVE'),
  }),
  cardOp('GET', '/card/setpin', { code: 200, envelope: 'issuing', check: pinUrl }),
  cardOp('GET', '/card/resetpin', { code: 200, envelope: 'issuing', check: pinUrl }),
  cardOp('GET', '/card/changepin', { code: 200, envelope: 'issuing', check: pinUrl }),
  // A new family B card is enrolled in 3DS to the registered e-mail: GET, PATCH, DELETE, then POST.
  cardOp('GET', '/card/3DS', {
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const e = firstOf(b, '3DS');
      expect(e.otp_delivery_method).toBe('EMAIL');
      expect(e).toHaveProperty('destination');
      expect(e).toHaveProperty('status');
    },
  }),
  cardOp('PATCH', '/card/3DS', {
    code: 200,
    envelope: 'issuing',
    body: () => ({ otp_delivery_method: 'SMS' }),
    check: emptyData,
  }),
  cardOp('DELETE', '/card/3DS', { code: 200, envelope: 'issuing', check: emptyData }),
  cardOp('POST', '/card/3DS', {
    code: 200,
    envelope: 'issuing',
    body: () => ({ otp_delivery_method: 'EMAIL' }),
    check: emptyData,
  }),
  cardOp('GET', '/card/limit', {
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      const items = asArr(b.data, 'data').map((i) => asObj(i, 'limit'));
      expect(items.length).toBeGreaterThan(0);
      for (const i of items) {
        for (const f of ['amount_limit', 'amount_limit_period', 'transaction_type', 'currency_code'])
          expect(i).toHaveProperty(f);
        expect(typeof i.active).toBe('boolean');
      }
    },
  }),
  cardOp('PATCH', '/card/limit', {
    code: 200,
    envelope: 'issuing',
    body: () => ({ amount_limit_period: 'DAY', amount_limit: 1000, transaction_type: 'PURCHASE' }),
    check: emptyData,
  }),
);

// Family B KYC: x-cardholderHash-id required; x-client-id is "required in one listing and optional in
// another", so it is sent but never dropped.
for (const sub of ['/kyc', '/kyc/rfi', '/kyc/rfi/respond']) {
  OPS.push({
    name: `GET ${B}${sub}`,
    method: 'GET',
    path: () => `${B}${sub}`,
    headers: () => HB2({ 'x-cardholderHash-id': need('cardholderB'), 'x-client-id': 'conformance-client' }),
    required: [...HB2_REQUIRED, 'x-cardholderHash-id'],
    bearer: 'optional',
    code: 200,
    envelope: 'issuing',
    check: (b) => {
      if (sub === '/kyc/rfi') {
        const rfi = Array.isArray(b.data) ? firstOf(b, 'rfi') : asObj(b.data, 'data');
        asObj(rfi.services_declined_codes, 'services_declined_codes');
        expect(rfi).toHaveProperty('declined_reason');
      } else {
        expectKycView(firstOf(b, sub));
      }
    },
  });
}

// ------------------------------------------------------------------ notifications
const TABLE_EVENT = 'card_configuration';
const TABLE_WEBHOOK = 'https://hooks.example.test/conformance';

OPS.push(
  {
    name: `GET ${N}/getallwebhooks`,
    method: 'GET',
    path: () => `${N}/getallwebhooks?program_code=${sb.credentials.programCode}`,
    headers: NOTIFY,
    required: ['x-api-key'],
    bearer: 'none',
    code: 200,
    envelope: 'notification',
    check: (b) => {
      const entries = asArr(b.data, 'data').map((e) => asObj(e, 'entry'));
      for (const e of entries) {
        asStr(e.event_description, 'event_description');
        expect(e.program_code).toBe(sb.credentials.programCode);
      }
      expect(entries.map((e) => e.event_name).sort()).toEqual([...CATALOG].sort());
    },
  },
  {
    name: `POST ${N}/subscribe`,
    method: 'POST',
    path: () => `${N}/subscribe`,
    headers: NOTIFY,
    required: ['x-api-key'],
    bearer: 'none',
    body: () => ({
      event_name: TABLE_EVENT,
      subscription_type: 'w',
      ...notifyKey(),
      created_by: 'conformance',
      webhook_url: TABLE_WEBHOOK,
      x_api_key: 'conformance-hook-key',
    }),
    code: 200,
    envelope: 'notification',
    check: (b) => {
      asStr(b.message, 'message');
      expect(b).not.toHaveProperty('data');
    },
  },
  {
    name: `POST ${N}/subscribedwebhook`,
    method: 'POST',
    path: () => `${N}/subscribedwebhook?program_code=${sb.credentials.programCode}`,
    headers: NOTIFY,
    required: ['x-api-key'],
    bearer: 'none',
    body: () => ({ agent_code: sb.credentials.agentCode, subagent_code: sb.credentials.subagentCode }),
    code: 200,
    envelope: 'bare-array',
    check: (_b, res) => {
      const records = asArr(res.body, 'body').map((r) => asObj(r, 'record'));
      const mine = records.filter((r) => r.event_name === TABLE_EVENT);
      expect(mine).toHaveLength(1);
      const r = mine[0] as Obj;
      expect(r.subscription_type).toBe('w');
      expect(r.webhook_url).toBe(TABLE_WEBHOOK);
      expect(r.created_by).toBe('conformance');
      expect(r.agent_code).toBe(sb.credentials.agentCode);
      expect(r.subagent_code).toBe(sb.credentials.subagentCode);
      expect(r.program_code).toBe(sb.credentials.programCode);
      expect(r.company_code).toBe(sb.credentials.companyId);
      for (const f of ['sender_email', 'updated_by']) expect(r).toHaveProperty(f);
      expect('x_api_key' in r || 'x-api-key' in r, 'an API key field').toBe(true);
      expect(Number.isInteger(r.sl_no)).toBe(true);
      expect(asStr(r.created_time, 'created_time')).toMatch(HTTP_DATE);
      expect(asStr(r.updated_time, 'updated_time')).toMatch(HTTP_DATE);
    },
  },
  {
    name: `PATCH ${N}/subscribe`,
    method: 'PATCH',
    path: () => `${N}/subscribe`,
    headers: NOTIFY,
    required: ['x-api-key'],
    bearer: 'none',
    body: () => ({
      event_name: TABLE_EVENT,
      subscription_type: 'n',
      ...notifyKey(),
      updated_by: 'conformance-updater',
    }),
    code: 200,
    envelope: 'notification',
    check: (b) => {
      asStr(b.message, 'message');
      expect(b).not.toHaveProperty('data');
    },
  },
  {
    name: `DELETE ${N}/subscribe`,
    method: 'DELETE',
    path: () => `${N}/subscribe`,
    headers: NOTIFY,
    required: ['x-api-key'],
    bearer: 'none',
    body: () => ({ event_name: TABLE_EVENT, ...notifyKey() }),
    code: 200,
    envelope: 'notification',
    check: (b) => {
      asStr(b.message, 'message');
      expect(b).not.toHaveProperty('data');
    },
  },
);

function send(op: Op, headers: HeaderMap): Promise<Answer> {
  return call(op.method, op.path(), headers, op.body?.());
}

// ---------------------------------------------------------------------------------------------

describe('the operation table', () => {
  it('lists the 64 operations of the spec, each once', () => {
    expect(OPS).toHaveLength(64);
    expect(new Set(OPS.map((o) => o.name)).size).toBe(64);
  });
});

describe('every operation: each required header is needed; the complete request succeeds', () => {
  beforeAll(() => {
    sb.reset();
  });

  for (const op of OPS) {
    describe(op.name, () => {
      if (op.prepare) beforeAll(async () => op.prepare?.());

      for (const header of op.required) {
        it(`without ${header} is refused (4xx, status "error")`, async () => {
          expectRefused(await send(op, without(op.headers(), header)), op.envelope);
        });
      }

      if (op.bearer === 'required') {
        it('with an invalid bearer token is refused', async () => {
          const res = await send(op, { ...op.headers(), authorization: 'Bearer invalid.token.value' });
          expectRefused(res, op.envelope);
        });
      }

      const how =
        op.bearer === 'optional'
          ? ' (without a bearer token: optional here)'
          : op.bearer === 'none'
            ? ' (no bearer token)'
            : '';
      it(`with all required headers succeeds: ${op.code} and the ${op.envelope} envelope${how}`, async () => {
        const res = await send(op, op.headers());
        const body = expectSuccessEnvelope(res, op.code, op.envelope, op.name.includes('(listing)'));
        op.check?.(body, res);
      });

      if (op.bearer === 'optional' && op.method === 'GET') {
        it('also succeeds with a valid bearer token', async () => {
          const res = await send(op, { ...op.headers(), authorization: `Bearer ${token}` });
          expectSuccessEnvelope(res, op.code, op.envelope, false);
        });
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------

describe('Authentication', () => {
  beforeAll(() => {
    sb.reset();
  });

  it('the token endpoint issues a JWT valid for 30 minutes (expiresIn = 1800) and a Bearer type', async () => {
    const res = await call('POST', TOKEN_PATH, tokenHeaders());
    expect(res.status).toBe(200);
    const d = asObj(asObj(res.body, 'body').data, 'data');
    expect(d.expiresIn).toBe(1800);
    expect(asStr(d.tokenType, 'tokenType').toLowerCase()).toBe('bearer');
    const [header, payload] = asStr(d.token, 'token').split('.');
    expect(isObj(JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')))).toBe(true);
    expect(isObj(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')))).toBe(true);
  });

  it('a token just issued is accepted on a banking endpoint and a family A endpoint', async () => {
    const res = await call('POST', TOKEN_PATH, tokenHeaders());
    const fresh = asStr(asObj(asObj(res.body, 'body').data, 'data').token, 'token');
    const headers = { ...h.HB(fresh) };
    const bank = await call('GET', `${BK}/accounts/balances?companyCode=${co()}`, headers);
    expectSuccessEnvelope(bank, 200, 'banking', false);
    const issuing = await call('GET', `${A}/card/cardholder?page_num=1&page_size=1`, { ...h.HB(fresh) });
    expectSuccessEnvelope(issuing, 200, 'issuing', true);
  });

  it('the user lookup needs neither a bearer token nor x-user-id, and names the ids the token endpoint takes', async () => {
    const res = await call('GET', `${BK}/users?email=${encodeURIComponent(sb.credentials.userEmail)}`, {
      ...h.USERS(),
    });
    const body = expectSuccessEnvelope(res, 200, 'banking', false);
    const user = asObj(body.data, 'data');
    const tok = await call('POST', TOKEN_PATH, {
      ...tokenHeaders(),
      'x-user-id': asStr(user.userId, 'userId'),
      'x-company-id': asStr(user.companyCode, 'companyCode'),
    });
    expect(tok.status).toBe(200);
  });

  it('family B: Authorization is optional, but a bearer token that is sent must be a valid one', async () => {
    // The failure for an invalid token is "not shown"; a valid token is accepted, a garbage one is not.
    const cardholder = await call(
      'POST',
      `${B}/cardholder`,
      {
        ...HB2({ 'x-agent-code': sb.credentials.agentCode, 'x-subagent-code': sb.credentials.subagentCode }),
        authorization: `Bearer ${token}`,
      },
      cardholderB(uniqueEmail('bt')),
    );
    const id = asStr(firstOf(expectSuccessEnvelope(cardholder, 200, 'issuing', false), 'create').id, 'id');
    const noToken = await call('GET', `${B}/cardholder`, HB2({ 'x-cardholderHash-id': id }));
    expectSuccessEnvelope(noToken, 200, 'issuing', false);
    const garbage = await call('GET', `${B}/cardholder`, {
      ...HB2({ 'x-cardholderHash-id': id }),
      authorization: 'Bearer invalid.token.value',
    });
    expectRefused(garbage, 'issuing');
  });
});

// ---------------------------------------------------------------------------------------------

describe('Notifications: x-api-key only', () => {
  beforeAll(() => {
    sb.reset();
  });

  const ops: [string, string, () => unknown][] = [
    ['GET', '/getallwebhooks?program_code=PROGRAM', () => undefined],
    [
      'POST',
      '/subscribe',
      () => ({ event_name: 'card_activate', subscription_type: 'n', ...notifyKey(), created_by: 'qa' }),
    ],
    [
      'POST',
      '/subscribedwebhook?program_code=PROGRAM',
      () => ({ agent_code: sb.credentials.agentCode, subagent_code: sb.credentials.subagentCode }),
    ],
    [
      'PATCH',
      '/subscribe',
      () => ({ event_name: 'kyc_complete', subscription_type: 'n', ...notifyKey(), updated_by: 'qa' }),
    ],
    ['DELETE', '/subscribe', () => ({ event_name: 'card_activate', ...notifyKey() })],
  ];

  it.each(ops)('%s %s refuses a wrong x-api-key', async (method, path, body) => {
    const p = `${N}${path.replace('PROGRAM', sb.credentials.programCode)}`;
    const res = await call(method, p, { ...NOTIFY(), 'x-api-key': 'not-the-api-key' }, body());
    expectRefused(res, 'notification');
  });

  it('need none of the banking or issuing headers (no bearer, no x-product-id, x-user-id or x-request-id)', async () => {
    const headers = NOTIFY();
    for (const name of ['authorization', 'x-product-id', 'x-user-id', 'x-request-id'])
      expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain(name);
    const sub = await call('POST', `${N}/subscribe`, headers, ops[1]?.[2]());
    expectSuccessEnvelope(sub, 200, 'notification', false);
    const del = await call('DELETE', `${N}/subscribe`, headers, ops[4]?.[2]());
    expectSuccessEnvelope(del, 200, 'notification', false);
  });

  it('a bearer token does not replace the x-api-key', async () => {
    const res = await call('GET', `${N}/getallwebhooks?program_code=${sb.credentials.programCode}`, {
      ...without(NOTIFY(), 'x-api-key'),
      authorization: `Bearer ${token}`,
    });
    expectRefused(res, 'notification');
  });
});

// ---------------------------------------------------------------------------------------------

describe('Events: the catalog and subscriptions to every catalog event', () => {
  /** A separate agent keeps these subscriptions apart from any existing ones. */
  const AGENT = 'AGT-CONF-EVENTS';
  const key = () => notifyKey({ agent_code: AGENT });

  beforeAll(() => {
    sb.reset();
  });

  it('the catalog lists exactly the 13 subscribable events, each once, not account.submitted or conversion.cancelled', async () => {
    const res = await call('GET', `${N}/getallwebhooks?program_code=${sb.credentials.programCode}`, NOTIFY());
    const body = expectSuccessEnvelope(res, 200, 'notification', false);
    const names = asArr(body.data, 'data').map((e) => asObj(e, 'entry').event_name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...CATALOG].sort());
    expect(names).not.toContain('account.submitted');
    expect(names).not.toContain('conversion.cancelled');
  });

  it.each(CATALOG)(
    '%s can be subscribed (type n); a second subscription for the same key is refused',
    async (event) => {
      const first = await call('POST', `${N}/subscribe`, NOTIFY(), {
        event_name: event,
        subscription_type: 'n',
        ...key(),
        created_by: 'qa',
      });
      expectSuccessEnvelope(first, 200, 'notification', false);
      // subscription_type is not part of the key: a type w subscription for the same key is refused too
      const second = await call('POST', `${N}/subscribe`, NOTIFY(), {
        event_name: event,
        subscription_type: 'w',
        ...key(),
        created_by: 'qa',
        webhook_url: 'https://hooks.example.test/dup',
        x_api_key: 'dup-key',
      });
      expectRefused(second, 'notification');
    },
  );

  it('the list for that agent then holds one type n record per catalog event', async () => {
    const res = await call(
      'POST',
      `${N}/subscribedwebhook?program_code=${sb.credentials.programCode}`,
      NOTIFY(),
      {
        agent_code: AGENT,
        subagent_code: sb.credentials.subagentCode,
      },
    );
    expect(res.status).toBe(200);
    const records = asArr(res.body, 'body').map((r) => asObj(r, 'record'));
    expect(records.map((r) => r.event_name).sort()).toEqual([...CATALOG].sort());
    for (const r of records) {
      expect(r.subscription_type).toBe('n');
      expect(r.agent_code).toBe(AGENT);
      expect(Number.isInteger(r.sl_no)).toBe(true);
    }
    expect(new Set(records.map((r) => r.sl_no)).size).toBe(records.length);
  });
});

describe('Notifications: one subscription per (event, program, company, agent, sub-agent)', () => {
  const AGENT = 'AGT-CONF-KEYS';
  const S1 = 'SUB-CONF-ONE';
  const S2 = 'SUB-CONF-TWO';
  const EVENT = 'wallet_create';
  const key = (subagent: string) => notifyKey({ agent_code: AGENT, subagent_code: subagent });

  beforeAll(() => {
    sb.reset();
  });

  async function list(subagent: string): Promise<Obj[]> {
    const res = await call(
      'POST',
      `${N}/subscribedwebhook?program_code=${sb.credentials.programCode}`,
      NOTIFY(),
      {
        agent_code: AGENT,
        subagent_code: subagent,
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return asArr(res.body, 'body').map((r) => asObj(r, 'record'));
  }

  it('the same event for two sub-agents gives two subscriptions, each listed under its own sub-agent', async () => {
    for (const sub of [S1, S2]) {
      const res = await call('POST', `${N}/subscribe`, NOTIFY(), {
        event_name: EVENT,
        subscription_type: 'n',
        ...key(sub),
        created_by: 'qa',
      });
      expectSuccessEnvelope(res, 200, 'notification', false);
    }
    for (const sub of [S1, S2]) {
      const records = (await list(sub)).filter((r) => r.event_name === EVENT);
      expect(records).toHaveLength(1);
      expect(records[0]?.subagent_code).toBe(sub);
    }
  });

  it('a different event for the same agent and sub-agent is a separate subscription', async () => {
    const res = await call('POST', `${N}/subscribe`, NOTIFY(), {
      event_name: 'p2p_transfer',
      subscription_type: 'n',
      ...key(S1),
      created_by: 'qa',
    });
    expectSuccessEnvelope(res, 200, 'notification', false);
    expect((await list(S1)).map((r) => r.event_name).sort()).toEqual(['p2p_transfer', EVENT].sort());
  });

  it('PATCH to type w needs the API key field as well as webhook_url', async () => {
    const res = await call('PATCH', `${N}/subscribe`, NOTIFY(), {
      event_name: EVENT,
      subscription_type: 'w',
      ...key(S1),
      updated_by: 'qa-2',
      webhook_url: 'https://hooks.example.test/s1',
    });
    expectRefused(res, 'notification');
    const rec = (await list(S1)).find((r) => r.event_name === EVENT);
    expect(rec?.subscription_type).toBe('n');
  });

  it('PATCH changes only the subscription of its key, and does not add one', async () => {
    const res = await call('PATCH', `${N}/subscribe`, NOTIFY(), {
      event_name: EVENT,
      subscription_type: 'w',
      ...key(S1),
      updated_by: 'qa-2',
      webhook_url: 'https://hooks.example.test/s1',
      x_api_key: 'key-s1',
    });
    expectSuccessEnvelope(res, 200, 'notification', false);
    const one = (await list(S1)).filter((r) => r.event_name === EVENT);
    expect(one).toHaveLength(1);
    expect(one[0]?.subscription_type).toBe('w');
    expect(one[0]?.webhook_url).toBe('https://hooks.example.test/s1');
    expect(one[0]?.updated_by).toBe('qa-2');
    expect(asStr(one[0]?.updated_time, 'updated_time')).toMatch(HTTP_DATE);
    const two = (await list(S2)).filter((r) => r.event_name === EVENT);
    expect(two).toHaveLength(1);
    expect(two[0]?.subscription_type).toBe('n');
    expect(two[0]?.updated_by).toBeNull();
  });

  it('PATCH back to type n needs neither webhook_url nor the API key field', async () => {
    const res = await call('PATCH', `${N}/subscribe`, NOTIFY(), {
      event_name: EVENT,
      subscription_type: 'n',
      ...key(S1),
      updated_by: 'qa-3',
    });
    expectSuccessEnvelope(res, 200, 'notification', false);
    const rec = (await list(S1)).find((r) => r.event_name === EVENT);
    expect(rec?.subscription_type).toBe('n');
    expect(rec?.updated_by).toBe('qa-3');
  });

  it('DELETE removes only the subscription of its key; the key can then be subscribed again', async () => {
    const del = await call('DELETE', `${N}/subscribe`, NOTIFY(), { event_name: EVENT, ...key(S1) });
    expectSuccessEnvelope(del, 200, 'notification', false);
    expect((await list(S1)).map((r) => r.event_name)).toEqual(['p2p_transfer']);
    expect((await list(S2)).map((r) => r.event_name)).toEqual([EVENT]);
    const again = await call('POST', `${N}/subscribe`, NOTIFY(), {
      event_name: EVENT,
      subscription_type: 'w',
      ...key(S1),
      created_by: 'qa',
      webhook_url: 'https://hooks.example.test/again',
      'x-api-key': 'key-again',
    });
    expectSuccessEnvelope(again, 200, 'notification', false);
    const rec = (await list(S1)).find((r) => r.event_name === EVENT);
    expect(rec?.subscription_type).toBe('w');
    expect(rec?.webhook_url).toBe('https://hooks.example.test/again');
  });

  it('type w is refused without webhook_url or without the API key field; type n accepts neither being sent', async () => {
    const base = { event_name: 'card_status', ...key(S2), created_by: 'qa' };
    expectRefused(
      await call('POST', `${N}/subscribe`, NOTIFY(), { ...base, subscription_type: 'w', x_api_key: 'k' }),
      'notification',
    );
    expectRefused(
      await call('POST', `${N}/subscribe`, NOTIFY(), {
        ...base,
        subscription_type: 'w',
        webhook_url: 'https://hooks.example.test/x',
      }),
      'notification',
    );
    expect((await list(S2)).map((r) => r.event_name)).not.toContain('card_status');
    expectSuccessEnvelope(
      await call('POST', `${N}/subscribe`, NOTIFY(), { ...base, subscription_type: 'n' }),
      200,
      'notification',
      false,
    );
    const rec = (await list(S2)).find((r) => r.event_name === 'card_status');
    expect(rec?.subscription_type).toBe('n');
  });
});
