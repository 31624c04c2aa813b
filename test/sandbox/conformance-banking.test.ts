/**
 * Black-box conformance tests for the banking part of the service interface
 * (authentication and users, accounts, beneficiaries, conversions, payouts, notifications, events),
 * written from `service-interface.md` and the credentials/seed sections of `docs/sandbox.md` only.
 */
import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
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
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const B = '/svc/banking/api/v1';
const TOKEN_PATH = '/svc/api/v1/auth/token';
const N = '/svc/api/v1/notification';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

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

const PURPOSE_CODES = [
  'AUDIO_VISUAL_SERVICES',
  'BILL_PAYMENT',
  'BUSINESS_EXPENSES',
  'CONSTRUCTION',
  'DONATION_CHARITABLE_CONTRIBUTION',
  'EDUCATION_TRAINING',
  'FAMILY_SUPPORT',
  'FREIGHT',
  'GOODS_PURCHASED',
  'INVESTMENT_CAPITAL',
  'INVESTMENT_PROCEEDS',
  'LIVING_EXPENSES',
  'LOAN_CREDIT_REPAYMENT',
  'MEDICAL_SERVICES',
  'PENSION',
  'PERSONAL_REMITTANCE',
  'PROFESSIONAL_BUSINESS_SERVICES',
  'REAL_ESTATE',
  'TAXES',
  'TECHNICAL_SERVICES',
  'TRANSFER_TO_OWN_ACCOUNT',
  'TRAVEL',
  'WAGES_SALARY',
];

let sb: RunningSandbox;
let h: ReturnType<typeof headerSets>;
let COMPANY: string;

type Headers = Record<string, string | undefined>;

beforeAll(async () => {
  sb = await startTestSandbox();
  h = headerSets(sb);
  COMPANY = sb.credentials.companyId;
});

afterAll(async () => {
  await sb.close();
});

/** A banking call with a fresh token and the HB header set; `headers` override (undefined drops). */
async function bank(
  method: string,
  path: string,
  body?: unknown,
  headers: Headers = {},
): Promise<RawResponse> {
  const token = await tokenFor(sb);
  return raw(sb, method, `${B}${path}`, {
    headers: { ...h.HB(token), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
}

function tokenHeaders(): Headers {
  const c = sb.credentials;
  return {
    'content-type': 'application/json',
    'x-api-key': c.apiKey,
    'x-company-id': c.companyId,
    'x-user-id': c.userId,
    'x-request-id': randomUUID(),
  };
}

function notify(method: string, path: string, body?: unknown, headers: Headers = {}): Promise<RawResponse> {
  return raw(sb, method, `${N}${path}`, {
    headers: { ...h.NOTIFY(), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
}

function expectBankOk(res: RawResponse, code = 200): void {
  expect(res.status, JSON.stringify(res.body)).toBe(code);
  expect(res.body.code).toBe(code);
  expect(res.body.status).toBe('SUCCESS');
  expect(typeof res.body.message).toBe('string');
  expect(res.body).toHaveProperty('data');
}

/** Failure per the spec: HTTP 400, `{code: 400, status: 'error', message}`. */
function expectBankError(res: RawResponse): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(400);
  expect(res.body.status).toBe('error');
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
}

/** Credential/token failures: the spec does not show the code (400 per Errors; the sandbox documents 401). */
function expectAuthError(res: RawResponse): void {
  expect([400, 401], JSON.stringify(res.body)).toContain(res.status);
  expect(res.body.code).toBe(res.status);
  expect(res.body.status).toBe('error');
  expect(typeof res.body.message).toBe('string');
}

function expectNotifyOk(res: RawResponse): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(['success', 'SUCCESS']).toContain(res.body.status);
  expect(typeof res.body.message).toBe('string');
}

function expectNotifyError(res: RawResponse): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.status).toBe('error');
  expect(typeof res.body.message).toBe('string');
}

async function clockNow(): Promise<number> {
  const res = await raw(sb, 'GET', '/_sandbox/clock');
  return Date.parse(res.body.now);
}

function achBeneficiary(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyCode: COMPANY,
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
    ...overrides,
  };
}

function withBank(patch: Record<string, unknown>, drop: string[] = []): Record<string, unknown> {
  const base = achBeneficiary();
  const bankObj: Record<string, unknown> = { ...(base.bank as Record<string, unknown>), ...patch };
  for (const k of drop) delete bankObj[k];
  return { ...base, bank: bankObj };
}

function fxQuoteBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyCode: COMPANY,
    direction: 'FX_CONVERT',
    sourceAssetCode: 'USD',
    targetAssetCode: 'EUR',
    amount: 1000,
    side: 'SOURCE',
    ...overrides,
  };
}

function payoutQuoteBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyCode: COMPANY,
    beneficiaryId: 'ben_de_swift_0001',
    destinationRail: 'SWIFT',
    sourceAssetCode: 'EUR',
    destinationAssetCode: 'EUR',
    sourceAccountId: 'acc_eur_0001',
    amount: 500,
    side: 'SOURCE',
    ...overrides,
  };
}

async function fxQuote(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await bank('POST', '/conversions/quote', fxQuoteBody(overrides));
  expectBankOk(res);
  return res.body.data.quoteId as string;
}

async function payoutQuote(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await bank('POST', '/payouts/quote', payoutQuoteBody(overrides));
  expectBankOk(res);
  return res.body.data.quoteId as string;
}

function omit(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...obj };
  delete copy[key];
  return copy;
}

function expectNumber(v: unknown): void {
  expect(typeof v).toBe('number');
  expect(Number.isFinite(v)).toBe(true);
}

function expectStringOrNull(v: unknown): void {
  expect(v === null || typeof v === 'string').toBe(true);
}

// ---------------------------------------------------------------------------------------------
describe('Authentication: POST /svc/api/v1/auth/token', () => {
  it('issues a bearer token in the banking-style envelope with the documented data fields', async () => {
    const res = await raw(sb, 'POST', TOKEN_PATH, { headers: tokenHeaders() });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.status).not.toBe('error');
    expect(typeof res.body.message).toBe('string');
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(
      ['companyCode', 'email', 'expiresIn', 'token', 'tokenType', 'userId'].sort(),
    );
    expect(typeof d.token).toBe('string');
    expect(typeof d.tokenType).toBe('string');
    expect(d.tokenType.toLowerCase()).toBe('bearer');
    expect(d.expiresIn).toBe(1800);
    expect(d.userId).toBe(sb.credentials.userId);
    expect(d.companyCode).toBe(sb.credentials.companyId);
    expect(d.email).toBe(sb.credentials.userEmail);
  });

  it('the token is a JWT (three base64url segments, JSON header and payload)', async () => {
    const token = await tokenFor(sb);
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    expect(typeof header.alg).toBe('string');
    if (payload.exp !== undefined && payload.iat !== undefined) expect(payload.exp - payload.iat).toBe(1800);
  });

  it('needs no body and no Authorization header', async () => {
    const res = await raw(sb, 'POST', TOKEN_PATH, {
      headers: { ...tokenHeaders(), authorization: undefined },
    });
    expect(res.status).toBe(200);
  });

  it.each(['x-api-key', 'x-company-id', 'x-request-id', 'x-user-id'])(
    'refuses a request without %s',
    async (name) => {
      const res = await raw(sb, 'POST', TOKEN_PATH, { headers: { ...tokenHeaders(), [name]: undefined } });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.status).toBe('error');
      expect(res.body.code).toBe(res.status);
    },
  );

  it.each([
    ['x-api-key', 'wrong-key'],
    ['x-company-id', 'CMP-NOPE'],
    ['x-user-id', 'usr_nobody'],
  ])('refuses a wrong %s', async (name, value) => {
    const res = await raw(sb, 'POST', TOKEN_PATH, { headers: { ...tokenHeaders(), [name]: value } });
    expectAuthError(res);
  });

  it('GET on the token path is not a token request', async () => {
    const res = await raw(sb, 'GET', TOKEN_PATH, { headers: tokenHeaders() });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it('every request gets a distinct, usable token', async () => {
    const t1 = await tokenFor(sb);
    const t2 = await tokenFor(sb);
    for (const t of [t1, t2]) {
      const res = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, { headers: h.HB(t) });
      expectBankOk(res);
    }
  });
});

describe('Bearer token on banking endpoints', () => {
  it('is required (missing Authorization is refused)', async () => {
    const res = await bank('GET', `/accounts?companyCode=${COMPANY}`, undefined, {
      authorization: undefined,
    });
    expectAuthError(res);
  });

  it.each([
    ['garbage', 'Bearer not-a-jwt'],
    ['tampered signature', 'TAMPER'],
    ['no Bearer scheme', 'RAW'],
  ])('refuses an invalid token (%s)', async (_label, value) => {
    const token = await tokenFor(sb);
    let auth = value;
    if (value === 'TAMPER') auth = `Bearer ${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    if (value === 'RAW') auth = token;
    const res = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, {
      headers: { ...h.HB(token), authorization: auth },
    });
    expectAuthError(res);
  });

  it('a token stays valid just under 30 minutes and is refused after 30 minutes', async () => {
    const token = await tokenFor(sb);
    await advanceClock(sb, 1790);
    const ok = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, { headers: h.HB(token) });
    expectBankOk(ok);
    await advanceClock(sb, 15);
    const expired = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, { headers: h.HB(token) });
    expectAuthError(expired);
    // a new token works again
    const fresh = await tokenFor(sb);
    const again = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, { headers: h.HB(fresh) });
    expectBankOk(again);
  });

  it('refuses a wrong x-api-key, x-product-id or x-user-id even with a valid token', async () => {
    for (const [name, value] of [
      ['x-api-key', 'nope'],
      ['x-product-id', 'nope'],
      ['x-user-id', 'usr_other'],
    ] as const) {
      const res = await bank('GET', `/accounts?companyCode=${COMPANY}`, undefined, { [name]: value });
      expectAuthError(res);
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('Users: GET /svc/banking/api/v1/users', () => {
  const path = () => `${B}/users?email=${encodeURIComponent(sb.credentials.userEmail)}`;

  it('returns the User in the banking envelope without bearer token and without x-user-id', async () => {
    const res = await raw(sb, 'GET', path(), { headers: h.USERS() });
    expectBankOk(res);
    const u = res.body.data;
    expect(Array.isArray(u)).toBe(false);
    for (const f of [
      'userId',
      'companyCode',
      'email',
      'name',
      'businessName',
      'entityType',
      'country',
      'kycStatus',
      'status',
      'createdAt',
      'updatedAt',
    ]) {
      expect(u, f).toHaveProperty(f);
    }
    expect(u.userId).toBe(sb.credentials.userId);
    expect(u.companyCode).toBe(COMPANY);
    expect(u.email).toBe(sb.credentials.userEmail);
    expect(u.entityType).toBe('COMPANY');
    expect(u.country).toMatch(/^[A-Z]{2}$/);
    expect(u.kycStatus).toBe('APPROVED');
    expect(u.status).toBe('ACTIVE');
    expect(u.createdAt).toMatch(ISO_UTC);
    expect(u.updatedAt).toMatch(ISO_UTC);
  });

  it('the userId and companyCode it returns are those the token endpoint accepts', async () => {
    const res = await raw(sb, 'GET', path(), { headers: h.USERS() });
    const tok = await raw(sb, 'POST', TOKEN_PATH, {
      headers: {
        ...tokenHeaders(),
        'x-user-id': res.body.data.userId,
        'x-company-id': res.body.data.companyCode,
      },
    });
    expect(tok.status).toBe(200);
  });

  it('also accepts a request that carries a bearer token and x-user-id', async () => {
    const token = await tokenFor(sb);
    const res = await raw(sb, 'GET', path(), { headers: h.HB(token) });
    expectBankOk(res);
  });

  it('requires the email query parameter', async () => {
    const res = await raw(sb, 'GET', `${B}/users`, { headers: h.USERS() });
    expectBankError(res);
  });

  it('an unknown email is a failure', async () => {
    const res = await raw(sb, 'GET', `${B}/users?email=nobody%40example.com`, { headers: h.USERS() });
    expectBankError(res);
  });

  it.each(['x-api-key', 'x-product-id', 'x-request-id'])('refuses a request without %s', async (name) => {
    const res = await raw(sb, 'GET', path(), { headers: { ...h.USERS(), [name]: undefined } });
    expectBankError(res);
  });
});

// ---------------------------------------------------------------------------------------------
describe('HB header set on every banking endpoint', () => {
  const endpoints: [string, string, () => unknown][] = [
    ['GET', '/accounts?companyCode=CMP-DEMO', () => undefined],
    ['GET', '/accounts/acc_usd_0001?companyCode=CMP-DEMO', () => undefined],
    ['GET', '/accounts/balances?companyCode=CMP-DEMO', () => undefined],
    ['GET', '/accounts/acc_usd_0001/balance?companyCode=CMP-DEMO', () => undefined],
    ['GET', '/beneficiaries/options', () => undefined],
    [
      'GET',
      '/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US',
      () => undefined,
    ],
    ['POST', '/beneficiaries', () => achBeneficiary()],
    ['POST', '/conversions/quote', () => fxQuoteBody()],
    ['POST', '/conversions', () => ({ companyCode: COMPANY, quoteId: 'q_whatever' })],
    ['GET', '/conversions/conv_whatever', () => undefined],
    ['POST', '/payouts/quote', () => payoutQuoteBody()],
    ['POST', '/payouts', () => ({ companyCode: COMPANY, quoteId: 'q_whatever', purposeCode: 'TAXES' })],
    ['GET', '/payouts/pay_whatever', () => undefined],
  ];
  const cases: [string, string, () => unknown, string][] = [];
  for (const [m, p, b] of endpoints) {
    for (const hdr of ['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'authorization']) {
      cases.push([m, p, b, hdr]);
    }
  }

  it.each(cases)('%s %s without %s is refused', async (method, path, body, header) => {
    const res = await bank(method, path, body(), { [header]: undefined });
    if (header === 'authorization') expectAuthError(res);
    else expectBankError(res);
  });

  it('a POST body sent without Content-Type: application/json is refused', async () => {
    const res = await bank('POST', '/conversions/quote', fxQuoteBody(), { 'content-type': undefined });
    expectBankError(res);
    const text = await bank('POST', '/conversions/quote', fxQuoteBody(), { 'content-type': 'text/plain' });
    expectBankError(text);
  });

  it('malformed JSON is refused', async () => {
    const token = await tokenFor(sb);
    const res = await raw(sb, 'POST', `${B}/conversions/quote`, {
      headers: h.HB(token),
      rawBody: '{"companyCode":',
    });
    expectBankError(res);
  });

  it('Content-Type is required on a GET too (the spec: "all required"); 400 naming it', async () => {
    const res = await bank('GET', `/accounts?companyCode=${COMPANY}`, undefined, {
      'content-type': undefined,
    });
    expectBankError(res);
    expect(res.body.message).toContain('Content-Type');
  });

  it('header names are case-insensitive', async () => {
    const token = await tokenFor(sb);
    const c = sb.credentials;
    const res = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, {
      headers: {
        'X-Api-Key': c.apiKey,
        'X-Product-Id': c.productId,
        'X-Request-Id': randomUUID(),
        'X-User-Id': c.userId,
        'Content-Type': 'application/json',
        Authorization: `Bearer ${token}`,
      },
    });
    expectBankOk(res);
  });

  it('only the v1 version segment exists on banking paths', async () => {
    const token = await tokenFor(sb);
    const res = await raw(sb, 'GET', `/svc/banking/api/v2/accounts?companyCode=${COMPANY}`, {
      headers: h.HB(token),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

// ---------------------------------------------------------------------------------------------
describe('Accounts', () => {
  beforeAll(() => sb.reset());

  it('GET /accounts lists the seeded accounts with the list-item fields', async () => {
    const res = await bank('GET', `/accounts?companyCode=${COMPANY}`);
    expectBankOk(res);
    const d = res.body.data;
    expect(Array.isArray(d.items)).toBe(true);
    expect(typeof d.pageSize).toBe('number');
    expect(typeof d.pageNumber).toBe('number');
    expect(d.total).toBe(5);
    expect(d.items).toHaveLength(5);
    expect(d.items.map((a: { accountId: string }) => a.accountId).sort()).toEqual(
      ['acc_eur_0001', 'acc_gbp_0001', 'acc_sgd_0001', 'acc_usd_0001', 'acc_usd_0002'].sort(),
    );
    for (const a of d.items) {
      expect(typeof a.accountId).toBe('string');
      expect(typeof a.externalReference).toBe('string');
      expect(typeof a.currency).toBe('string');
      expect(a.paymentMethod).toBe('SWIFT');
      expect(a.status).toBe('ACTIVE');
      expect(Array.isArray(a.rails)).toBe(true);
      for (const r of a.rails) expect(typeof r).toBe('string');
      for (const f of [
        'accountNumber',
        'accountNumberMasked',
        'iban',
        'swiftCode',
        'routingNumber',
        'sortCode',
        'bankName',
        'bankAddress',
        'accountOwnerName',
      ]) {
        expect(a, f).toHaveProperty(f);
        expectStringOrNull(a[f]);
      }
    }
  });

  it('filters by currency', async () => {
    const res = await bank('GET', `/accounts?companyCode=${COMPANY}&currency=USD`);
    expectBankOk(res);
    expect(res.body.data.total).toBe(2);
    for (const a of res.body.data.items) expect(a.currency).toBe('USD');
  });

  it('pages with pageNumber and pageSize', async () => {
    const p1 = await bank('GET', `/accounts?companyCode=${COMPANY}&pageSize=2&pageNumber=1`);
    expectBankOk(p1);
    expect(p1.body.data.items).toHaveLength(2);
    expect(p1.body.data.pageSize).toBe(2);
    expect(p1.body.data.pageNumber).toBe(1);
    expect(p1.body.data.total).toBe(5);
    const p3 = await bank('GET', `/accounts?companyCode=${COMPANY}&pageSize=2&pageNumber=3`);
    expectBankOk(p3);
    expect(p3.body.data.items).toHaveLength(1);
    expect(p3.body.data.pageNumber).toBe(3);
    const ids = new Set<string>();
    for (const n of [1, 2, 3]) {
      const r = await bank('GET', `/accounts?companyCode=${COMPANY}&pageSize=2&pageNumber=${n}`);
      for (const a of r.body.data.items) ids.add(a.accountId);
    }
    expect(ids.size).toBe(5);
  });

  it('requires companyCode and refuses an unknown one', async () => {
    expectBankError(await bank('GET', '/accounts'));
    expectBankError(await bank('GET', '/accounts?companyCode=CMP-OTHER'));
  });

  it('refuses non-integer paging values', async () => {
    expectBankError(await bank('GET', `/accounts?companyCode=${COMPANY}&pageSize=abc`));
    expectBankError(await bank('GET', `/accounts?companyCode=${COMPANY}&pageNumber=x`));
  });

  it('GET /accounts/{accountID} returns the detail view', async () => {
    const res = await bank('GET', `/accounts/acc_usd_0001?companyCode=${COMPANY}`);
    expectBankOk(res);
    const a = res.body.data;
    expect(a.accountId).toBe('acc_usd_0001');
    expect(a.currency).toBe('USD');
    expect(a.paymentMethod).toBe('SWIFT');
    expect(a.status).toBe('ACTIVE');
    expect(a.accountNumber).toBe('8337104527');
    expect(a.routingNumber).toBe('026073150');
    expect(a.swiftCode).toBe('CMFGUS33');
    expect(a.accountOwnerName).toBe('Demo Trading Pte. Ltd.');
    expect(a.companyCode).toBe(COMPANY);
    for (const f of ['programCode', 'jurisdiction', 'issuanceReference']) expect(a, f).toHaveProperty(f);
    expect(a.bankDetailsAvailable).toBe(true);
    expect(typeof a.balanceAvailable).toBe('boolean');
    expect(a).toHaveProperty('balanceUnavailableReason');
    expectStringOrNull(a.balanceUnavailableReason);
    expect(a.createdAt).toMatch(ISO_UTC);
    expect(a.updatedAt).toMatch(ISO_UTC);
    const b = a.balance;
    expect(b).toBeTypeOf('object');
    expect(b).toHaveProperty('status');
    for (const f of ['availableBalance', 'prepaidBalance', 'marginBalance', 'frozenBalance'])
      expectNumber(b[f]);
    expect(b).toHaveProperty('asOf');
    expect(b.availableBalance).toBe(250000);
  });

  it('the account detail of an account without bank details has null coordinates and bankDetailsAvailable false', async () => {
    const res = await bank('GET', `/accounts/acc_sgd_0001?companyCode=${COMPANY}`);
    expectBankOk(res);
    const a = res.body.data;
    expect(a.bankDetailsAvailable).toBe(false);
    expect(a.rails).toEqual([]);
    for (const f of ['accountNumber', 'iban', 'swiftCode', 'routingNumber', 'sortCode'])
      expect(a[f], f).toBeNull();
  });

  it('EUR and GBP accounts show their documented coordinates', async () => {
    const eur = await bank('GET', `/accounts/acc_eur_0001?companyCode=${COMPANY}`);
    expectBankOk(eur);
    expect(eur.body.data.iban).toBe('DE89370400440532013000');
    expect(eur.body.data.swiftCode).toBe('COBADEFFXXX');
    const gbp = await bank('GET', `/accounts/acc_gbp_0001?companyCode=${COMPANY}`);
    expectBankOk(gbp);
    expect(gbp.body.data.sortCode).toBe('040075');
    expect(gbp.body.data.accountNumber).toBe('31926819');
  });

  it('account detail requires companyCode; an unknown account id is a failure', async () => {
    expectBankError(await bank('GET', '/accounts/acc_usd_0001'));
    expectBankError(await bank('GET', '/accounts/acc_usd_0001?companyCode=CMP-OTHER'));
    expectBankError(await bank('GET', `/accounts/acc_nope?companyCode=${COMPANY}`));
  });

  it('GET /accounts/balances returns one entry per currency with the documented fields', async () => {
    const res = await bank('GET', `/accounts/balances?companyCode=${COMPANY}`);
    expectBankOk(res);
    const d = res.body.data;
    expect(d.userId).toBe(sb.credentials.userId);
    expect(Array.isArray(d.errors)).toBe(true);
    expect(Array.isArray(d.balances)).toBe(true);
    const currencies = d.balances.map((b: { currency: string }) => b.currency);
    expect(new Set(currencies).size).toBe(currencies.length);
    expect([...currencies].sort()).toEqual(['EUR', 'GBP', 'JPY', 'SGD', 'USD']);
    for (const b of d.balances) {
      expect(Array.isArray(b.accountIds)).toBe(true);
      expect(b).toHaveProperty('status');
      for (const f of ['availableBalance', 'prepaidBalance', 'marginBalance', 'frozenBalance'])
        expectNumber(b[f]);
      expect(b).toHaveProperty('asOf');
    }
    const usd = d.balances.find((b: { currency: string }) => b.currency === 'USD');
    expect([...usd.accountIds].sort()).toEqual(['acc_usd_0001', 'acc_usd_0002']);
    expect(usd.availableBalance).toBe(250000);
    const jpy = d.balances.find((b: { currency: string }) => b.currency === 'JPY');
    expect(jpy.accountIds).toEqual([]);
    expect(jpy.asOf).toBeNull();
    expect(jpy.availableBalance).toBe(0);
  });

  it('GET /accounts/balances requires companyCode', async () => {
    expectBankError(await bank('GET', '/accounts/balances'));
    expectBankError(await bank('GET', '/accounts/balances?companyCode=CMP-OTHER'));
  });

  it('GET /accounts/{accountID}/balance answers 200; two accounts of one currency report the same balance', async () => {
    const a = await bank('GET', `/accounts/acc_usd_0001/balance?companyCode=${COMPANY}`);
    const b = await bank('GET', `/accounts/acc_usd_0002/balance?companyCode=${COMPANY}`);
    expectBankOk(a);
    expectBankOk(b);
    expect(a.body.data).toEqual(b.body.data);
  });

  it('GET /accounts/{accountID}/balance requires companyCode; unknown account is a failure', async () => {
    expectBankError(await bank('GET', '/accounts/acc_usd_0001/balance'));
    expectBankError(await bank('GET', `/accounts/acc_nope/balance?companyCode=${COMPANY}`));
  });
});

// ---------------------------------------------------------------------------------------------
describe('Beneficiaries', () => {
  beforeEach(() => sb.reset());

  it('GET /beneficiaries/options lists corridor options with the documented fields', async () => {
    const res = await bank('GET', '/beneficiaries/options');
    expectBankOk(res);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const o of res.body.data) {
      expect(typeof o.currency).toBe('string');
      expect(typeof o.country).toBe('string');
      expect(['INDIVIDUAL', 'COMPANY']).toContain(o.entityType);
      expect(['LOCAL', 'SWIFT']).toContain(o.paymentMethod);
      expect(typeof o.description).toBe('string');
    }
    const key = (o: { currency: string; country: string; paymentMethod: string; entityType: string }) =>
      `${o.currency}/${o.paymentMethod}/${o.country}/${o.entityType}`;
    const keys = res.body.data.map(key);
    for (const k of [
      'USD/LOCAL/US/INDIVIDUAL',
      'USD/LOCAL/US/COMPANY',
      'USD/SWIFT/US/INDIVIDUAL',
      'USD/SWIFT/SG/COMPANY',
      'EUR/SWIFT/DE/INDIVIDUAL',
      'EUR/SWIFT/DE/COMPANY',
    ]) {
      expect(keys).toContain(k);
    }
  });

  it('GET /beneficiaries/options filters by currency', async () => {
    const res = await bank('GET', '/beneficiaries/options?currency=EUR');
    expectBankOk(res);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const o of res.body.data) expect(o.currency).toBe('EUR');
  });

  const schemaPath = (extra = '') =>
    `/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US${extra}`;

  it('GET /beneficiaries/schema returns the sample corridor JSON Schema', async () => {
    const res = await bank('GET', schemaPath());
    expectBankOk(res);
    const s = res.body.data;
    if (s.$schema !== undefined) expect(s.$schema).toContain('2020-12');
    expect(typeof s.title).toBe('string');
    expect(s.type).toBe('object');
    expect(Array.isArray(s.allOf)).toBe(true);
    for (const p of [
      'email',
      'displayName',
      'companyCode',
      'entityType',
      'currency',
      'country',
      'firstName',
      'lastName',
      'bank',
      'address',
      'extras',
    ]) {
      expect(s.properties, p).toHaveProperty(p);
    }
    expect([...s.required].sort()).toEqual(
      ['companyCode', 'entityType', 'currency', 'firstName', 'lastName', 'bank', 'extras', 'address'].sort(),
    );
    expect(s.properties.entityType.enum).toEqual(['INDIVIDUAL']);
    expect(s.properties.currency.enum).toEqual(['USD']);
    expect(s.properties.extras.properties.paymentMethod.enum).toEqual(['LOCAL']);
    expect(s.properties.extras.required).toContain('paymentMethod');
    const bankS = s.properties.bank;
    for (const p of [
      'bankCountry',
      'accountCurrency',
      'accountHolder',
      'extras',
      'bankName',
      'bankAddress',
      'accountNumber',
      'iban',
      'routingCodeType',
      'routingCodeValue',
      'swiftCode',
    ]) {
      expect(bankS.properties, p).toHaveProperty(p);
    }
    expect([...bankS.properties.extras.properties.clearingSystem.enum].sort()).toEqual([
      'ACH',
      'FEDWIRE',
      'LOCAL',
    ]);
    expect(bankS.properties.extras.required).toContain('clearingSystem');
    expect([...bankS.properties.routingCodeType.enum].sort()).toEqual(['aba', 'ach']);
    for (const r of ['bankCountry', 'accountCurrency', 'accountHolder', 'extras'])
      expect(bankS.required).toContain(r);
    const addr = s.properties.address;
    for (const p of ['country', 'city', 'streetAddress', 'postalCode', 'state', 'nationality']) {
      expect(addr.properties, p).toHaveProperty(p);
    }
    expect(addr.required).toEqual(['country']);
  });

  it('the schema with clearingSystem=ACH makes routingCodeType (ach) and the bank/address details required', async () => {
    const res = await bank('GET', schemaPath('&clearingSystem=ACH'));
    expectBankOk(res);
    const text = JSON.stringify(res.body.data);
    expect(text).toContain('routingCodeType');
    expect(text).toContain('"ach"');
  });

  it('the schema with clearingSystem=FEDWIRE mentions routingCodeType aba', async () => {
    const res = await bank('GET', schemaPath('&clearingSystem=FEDWIRE'));
    expectBankOk(res);
    expect(JSON.stringify(res.body.data)).toContain('"aba"');
  });

  it.each(['currency', 'entityType', 'paymentMethod'])(
    'GET /beneficiaries/schema requires %s',
    async (param) => {
      const params = new URLSearchParams({
        currency: 'USD',
        entityType: 'INDIVIDUAL',
        paymentMethod: 'LOCAL',
      });
      params.delete(param);
      expectBankError(await bank('GET', `/beneficiaries/schema?${params.toString()}`));
    },
  );

  it('GET /beneficiaries/schema refuses values outside the enums', async () => {
    expectBankError(
      await bank(
        'GET',
        '/beneficiaries/schema?currency=USD&entityType=PERSON&paymentMethod=LOCAL&country=US',
      ),
    );
    expectBankError(
      await bank(
        'GET',
        '/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=WIRE&country=US',
      ),
    );
  });

  it('POST /beneficiaries creates an ACH beneficiary and returns beneficiary_id (HTTP 200)', async () => {
    const res = await bank('POST', '/beneficiaries', achBeneficiary());
    expectBankOk(res);
    expect(typeof res.body.data.beneficiary_id).toBe('string');
    expect(res.body.data.beneficiary_id.length).toBeGreaterThan(0);
  });

  it('POST /beneficiaries creates a FEDWIRE beneficiary (routingCodeType aba)', async () => {
    const res = await bank(
      'POST',
      '/beneficiaries',
      withBank({
        routingCodeType: 'aba',
        routingCodeValue: '026009593',
        extras: { clearingSystem: 'FEDWIRE' },
      }),
    );
    expectBankOk(res);
    expect(typeof res.body.data.beneficiary_id).toBe('string');
  });

  it('POST /beneficiaries creates a LOCAL-rail beneficiary with only the base requirements', async () => {
    const body = {
      companyCode: COMPANY,
      entityType: 'INDIVIDUAL',
      displayName: 'Jim Local',
      firstName: 'Jim',
      lastName: 'Local',
      currency: 'USD',
      address: { country: 'US' },
      bank: {
        bankCountry: 'US',
        accountCurrency: 'USD',
        accountHolder: 'Jim Local',
        accountNumber: '5550001111',
        extras: { clearingSystem: 'LOCAL' },
      },
      extras: { paymentMethod: 'LOCAL' },
    };
    const res = await bank('POST', '/beneficiaries', body);
    expectBankOk(res);
  });

  it('POST /beneficiaries creates a EUR SWIFT company beneficiary built from the corridor schema', async () => {
    const schema = await bank(
      'GET',
      '/beneficiaries/schema?currency=EUR&entityType=COMPANY&paymentMethod=SWIFT&country=DE',
    );
    expectBankOk(schema);
    const clearing = schema.body.data.properties.bank.properties.extras.properties.clearingSystem.enum[0];
    const body = {
      companyCode: COMPANY,
      entityType: 'COMPANY',
      displayName: 'Muster GmbH',
      companyName: 'Muster GmbH',
      currency: 'EUR',
      country: 'DE',
      address: {
        country: 'DE',
        city: 'Berlin',
        streetAddress: 'Hauptstrasse 1',
        postalCode: '10115',
        state: 'BE',
      },
      bank: {
        bankName: 'Commerzbank',
        bankAddress: 'Kaiserplatz, Frankfurt',
        bankCountry: 'DE',
        accountHolder: 'Muster GmbH',
        accountCurrency: 'EUR',
        iban: 'DE89370400440532013000',
        swiftCode: 'COBADEFFXXX',
        extras: { clearingSystem: clearing },
      },
      extras: { paymentMethod: 'SWIFT' },
    };
    const res = await bank('POST', '/beneficiaries', body);
    expectBankOk(res);
    const id = res.body.data.beneficiary_id;
    // the new id identifies the payee in payout quotes
    const q = await bank('POST', '/payouts/quote', payoutQuoteBody({ beneficiaryId: id }));
    expectBankOk(q);
  });

  it('a newly created ACH beneficiary can be used in a payout quote', async () => {
    const res = await bank('POST', '/beneficiaries', achBeneficiary());
    expectBankOk(res);
    const q = await bank(
      'POST',
      '/payouts/quote',
      payoutQuoteBody({
        beneficiaryId: res.body.data.beneficiary_id,
        sourceAssetCode: 'USD',
        destinationAssetCode: 'USD',
        sourceAccountId: 'acc_usd_0001',
        destinationRail: 'ACH',
      }),
    );
    expectBankOk(q);
  });

  const invalid: [string, () => Record<string, unknown>][] = [
    ['missing companyCode', () => omit(achBeneficiary(), 'companyCode')],
    ['unknown companyCode', () => achBeneficiary({ companyCode: 'CMP-OTHER' })],
    ['missing entityType', () => omit(achBeneficiary(), 'entityType')],
    ['entityType outside the enum', () => achBeneficiary({ entityType: 'PERSON' })],
    [
      'entityType not matching the corridor (COMPANY without companyName)',
      () => achBeneficiary({ entityType: 'COMPANY' }),
    ],
    ['missing currency', () => omit(achBeneficiary(), 'currency')],
    ['missing bank', () => omit(achBeneficiary(), 'bank')],
    ['missing firstName', () => omit(achBeneficiary(), 'firstName')],
    ['missing lastName', () => omit(achBeneficiary(), 'lastName')],
    ['missing address', () => omit(achBeneficiary(), 'address')],
    ['missing extras', () => omit(achBeneficiary(), 'extras')],
    ['extras.paymentMethod outside the enum', () => achBeneficiary({ extras: { paymentMethod: 'CARD' } })],
    ['empty-string optional field (email)', () => achBeneficiary({ email: '' })],
    ['empty-string optional field (country)', () => achBeneficiary({ country: '' })],
    ['firstName of wrong type', () => achBeneficiary({ firstName: 42 })],
    [
      'no accountNumber and no iban',
      () => withBank({ extras: { clearingSystem: 'LOCAL' } }, ['accountNumber']),
    ],
    ['ACH without routingCodeType', () => withBank({}, ['routingCodeType'])],
    ['ACH without routingCodeValue', () => withBank({}, ['routingCodeValue'])],
    ['ACH without swiftCode', () => withBank({}, ['swiftCode'])],
    ['ACH without bankName', () => withBank({}, ['bankName'])],
    ['ACH with routingCodeType aba', () => withBank({ routingCodeType: 'aba' })],
    ['FEDWIRE with routingCodeType ach', () => withBank({ extras: { clearingSystem: 'FEDWIRE' } })],
    ['clearingSystem outside the enum', () => withBank({ extras: { clearingSystem: 'RTP' } })],
    ['bank without extras.clearingSystem', () => withBank({ extras: {} })],
    ['bank without accountHolder', () => withBank({}, ['accountHolder'])],
    ['bank without bankCountry', () => withBank({}, ['bankCountry'])],
    ['bank without accountCurrency', () => withBank({}, ['accountCurrency'])],
    [
      'ACH address without city',
      () =>
        achBeneficiary({
          address: { country: 'US', streetAddress: '1 Main', postalCode: '10001', state: 'NY' },
        }),
    ],
    [
      'ACH address without state',
      () =>
        achBeneficiary({
          address: { country: 'US', city: 'NY', streetAddress: '1 Main', postalCode: '10001' },
        }),
    ],
    ['address without country', () => achBeneficiary({ address: { city: 'NY' } })],
    ['currency without a corridor', () => achBeneficiary({ currency: 'XXX' })],
  ];

  it.each(invalid)(
    'POST /beneficiaries refuses a request that does not match the corridor schema: %s',
    async (_l, body) => {
      expectBankError(await bank('POST', '/beneficiaries', body()));
    },
  );

  it('x-request-id idempotency: the same request with the same id returns the same beneficiary_id', async () => {
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    const a = await raw(sb, 'POST', `${B}/beneficiaries`, { headers, body: achBeneficiary() });
    const b = await raw(sb, 'POST', `${B}/beneficiaries`, { headers, body: achBeneficiary() });
    expectBankOk(a);
    expectBankOk(b);
    expect(b.body.data.beneficiary_id).toBe(a.body.data.beneficiary_id);
    const c = await bank('POST', '/beneficiaries', achBeneficiary());
    expect(c.body.data.beneficiary_id).not.toBe(a.body.data.beneficiary_id);
  });

  it('documented choice: the same x-request-id with a different body is refused', async () => {
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    expectBankOk(await raw(sb, 'POST', `${B}/beneficiaries`, { headers, body: achBeneficiary() }));
    const res = await raw(sb, 'POST', `${B}/beneficiaries`, {
      headers,
      body: achBeneficiary({ displayName: 'Someone Else' }),
    });
    expectBankError(res);
  });

  it('documented choice: a refused request may be corrected and resent with the same x-request-id', async () => {
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    expectBankError(
      await raw(sb, 'POST', `${B}/beneficiaries`, { headers, body: omit(achBeneficiary(), 'bank') }),
    );
    expectBankOk(await raw(sb, 'POST', `${B}/beneficiaries`, { headers, body: achBeneficiary() }));
  });
});

// ---------------------------------------------------------------------------------------------
describe('Conversions', () => {
  beforeEach(() => sb.reset());

  it('POST /conversions/quote (side SOURCE) returns an FX quote with all documented fields', async () => {
    const now = await clockNow();
    const res = await bank('POST', '/conversions/quote', fxQuoteBody());
    expectBankOk(res);
    const q = res.body.data;
    expect(typeof q.quoteId).toBe('string');
    expect(q.direction).toBe('FX_CONVERT');
    expect(q.sourceAssetCode).toBe('USD');
    expect(q.targetAssetCode).toBe('EUR');
    for (const f of ['sourceAmount', 'targetAmount', 'rate', 'inverseRate']) expectNumber(q[f]);
    expect(typeof q.currencyPair).toBe('string');
    expect(q.currencyPair).toContain('USD');
    expect(q.currencyPair).toContain('EUR');
    expect(q).toHaveProperty('processingFee');
    expect(q).toHaveProperty('networkFee');
    expect(q).toHaveProperty('feeAssetCode');
    expectStringOrNull(q.feeAssetCode);
    expect(q.sourceAmount).toBe(1000);
    // 1 USD buys about 1/1.085 EUR
    expect(q.rate).toBeGreaterThan(0.85);
    expect(q.rate).toBeLessThan(0.95);
    expect(q.rate * q.inverseRate).toBeCloseTo(1, 4);
    expect(q.targetAmount).toBeCloseTo(q.sourceAmount * q.rate, 0);
    expect(q.expiresAt).toMatch(ISO_UTC);
    const validity = (Date.parse(q.expiresAt) - now) / 1000;
    expect(validity).toBeGreaterThanOrEqual(70);
    expect(validity).toBeLessThanOrEqual(80);
  });

  it('side TARGET: amount is in the target currency', async () => {
    const res = await bank('POST', '/conversions/quote', fxQuoteBody({ side: 'TARGET', amount: 1000 }));
    expectBankOk(res);
    const q = res.body.data;
    expect(q.targetAmount).toBe(1000);
    expect(q.sourceAmount).toBeGreaterThan(1000);
    expect(q.sourceAmount).toBeCloseTo(q.targetAmount * q.inverseRate, 0);
  });

  const required = ['companyCode', 'direction', 'sourceAssetCode', 'targetAssetCode', 'amount', 'side'];
  it.each(required)('POST /conversions/quote requires %s', async (field) => {
    expectBankError(await bank('POST', '/conversions/quote', omit(fxQuoteBody(), field)));
  });

  it.each([
    ['direction', 'PAYOUT'],
    ['side', 'BOTH'],
    ['amount', '1000'],
    ['amount', -5],
    ['amount', 0],
    ['companyCode', 'CMP-OTHER'],
    ['sourceAssetCode', 'XXX'],
  ])('POST /conversions/quote refuses %s = %j', async (field, value) => {
    expectBankError(await bank('POST', '/conversions/quote', fxQuoteBody({ [field]: value })));
  });

  it('POST /conversions executes a valid quote: 202, EXECUTING', async () => {
    const quoteId = await fxQuote();
    const res = await bank('POST', '/conversions', {
      companyCode: COMPANY,
      quoteId,
      clientReference: 'conv-ref-1',
    });
    expectBankOk(res, 202);
    const d = res.body.data;
    expect(typeof d.conversionId).toBe('string');
    expect(typeof d.externalReference).toBe('string');
    expect(d.status).toBe('EXECUTING');
  });

  it('POST /conversions works without the optional clientReference', async () => {
    const quoteId = await fxQuote();
    const res = await bank('POST', '/conversions', { companyCode: COMPANY, quoteId });
    expectBankOk(res, 202);
    expect(res.body.data.status).toBe('EXECUTING');
  });

  it('GET /conversions/{conversionID} returns the status view', async () => {
    const quoteId = await fxQuote();
    const created = await bank('POST', '/conversions', {
      companyCode: COMPANY,
      quoteId,
      clientReference: 'c-2',
    });
    const id = created.body.data.conversionId;
    const res = await bank('GET', `/conversions/${id}`);
    expectBankOk(res);
    expect(res.body.data.conversionId).toBe(id);
    expect(res.body.data.externalReference).toBe(created.body.data.externalReference);
    expect(res.body.data.status).toBe('EXECUTING');
  });

  it('GET /conversions/{conversionID} for an unknown id is a failure', async () => {
    expectBankError(await bank('GET', '/conversions/conv_does_not_exist'));
  });

  it('a quote is still executable after 60 s', async () => {
    const quoteId = await fxQuote();
    await advanceClock(sb, 60);
    expectBankOk(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId }), 202);
  });

  it('executing an expired quote (after ~75 s) is a failure', async () => {
    const quoteId = await fxQuote();
    await advanceClock(sb, 80);
    expectBankError(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId }));
  });

  it('executing an already executed (invalidated) quote again is a failure', async () => {
    const quoteId = await fxQuote();
    expectBankOk(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId }), 202);
    expectBankError(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId }));
  });

  it('POST /conversions refuses an unknown quote, a payout quote and missing fields', async () => {
    expectBankError(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: 'q_unknown' }));
    const pq = await payoutQuote();
    expectBankError(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: pq }));
    const quoteId = await fxQuote();
    expectBankError(await bank('POST', '/conversions', { quoteId }));
    expectBankError(await bank('POST', '/conversions', { companyCode: COMPANY }));
    expectBankError(await bank('POST', '/conversions', { companyCode: 'CMP-OTHER', quoteId }));
  });

  it('x-request-id idempotency: a repeated conversion request returns the same conversion', async () => {
    const quoteId = await fxQuote();
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    const body = { companyCode: COMPANY, quoteId, clientReference: 'idem-1' };
    const a = await raw(sb, 'POST', `${B}/conversions`, { headers, body });
    const b = await raw(sb, 'POST', `${B}/conversions`, { headers, body });
    expectBankOk(a, 202);
    expect(b.status).toBe(202);
    expect(b.body.data.conversionId).toBe(a.body.data.conversionId);
  });

  it('quotes are not deduplicated by x-request-id (a new quote each time is harmless)', async () => {
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    const a = await raw(sb, 'POST', `${B}/conversions/quote`, { headers, body: fxQuoteBody() });
    expectBankOk(a);
  });
});

// ---------------------------------------------------------------------------------------------
describe('Payouts', () => {
  beforeEach(() => sb.reset());

  it('POST /payouts/quote returns a payout quote with all documented fields', async () => {
    const now = await clockNow();
    const res = await bank('POST', '/payouts/quote', payoutQuoteBody());
    expectBankOk(res);
    const q = res.body.data;
    expect(typeof q.quoteId).toBe('string');
    expect(q.sourceAssetCode).toBe('EUR');
    expect(q.destinationAssetCode).toBe('EUR');
    for (const f of [
      'sourceAmount',
      'destinationAmount',
      'fxRate',
      'processingFee',
      'feeAssetCode',
      'platformFee',
      'totalDebitAmount',
      'networkFee',
    ]) {
      expect(q, f).toHaveProperty(f);
    }
    for (const f of [
      'sourceAmount',
      'destinationAmount',
      'processingFee',
      'platformFee',
      'totalDebitAmount',
    ]) {
      expectNumber(q[f]);
    }
    expect(q.networkFee === null || typeof q.networkFee === 'number').toBe(true);
    expect(q.sourceAmount).toBe(500);
    expect(q.totalDebitAmount).toBeGreaterThanOrEqual(q.sourceAmount);
    expect(q.expiresAt).toMatch(ISO_UTC);
    const validity = (Date.parse(q.expiresAt) - now) / 1000;
    expect(validity).toBeGreaterThanOrEqual(70);
    expect(validity).toBeLessThanOrEqual(80);
  });

  it('a cross-currency payout quote carries the exchange rate', async () => {
    const res = await bank(
      'POST',
      '/payouts/quote',
      payoutQuoteBody({
        sourceAssetCode: 'USD',
        sourceAccountId: 'acc_usd_0001',
        destinationAssetCode: 'EUR',
      }),
    );
    expectBankOk(res);
    const q = res.body.data;
    expect(q.sourceAssetCode).toBe('USD');
    expect(q.destinationAssetCode).toBe('EUR');
    expectNumber(q.fxRate);
    expect(q.fxRate).toBeGreaterThan(0.85);
    expect(q.fxRate).toBeLessThan(0.95);
    expect(q.destinationAmount).toBeCloseTo(q.sourceAmount * q.fxRate, 0);
  });

  it('side TARGET: amount is the destination amount', async () => {
    const res = await bank(
      'POST',
      '/payouts/quote',
      payoutQuoteBody({
        sourceAssetCode: 'USD',
        sourceAccountId: 'acc_usd_0001',
        destinationAssetCode: 'EUR',
        side: 'TARGET',
        amount: 400,
      }),
    );
    expectBankOk(res);
    expect(res.body.data.destinationAmount).toBe(400);
    expect(res.body.data.sourceAmount).toBeGreaterThan(400);
  });

  it('destinationAssetCode is optional', async () => {
    const res = await bank('POST', '/payouts/quote', omit(payoutQuoteBody(), 'destinationAssetCode'));
    expectBankOk(res);
    expect(typeof res.body.data.destinationAssetCode).toBe('string');
  });

  const required = [
    'companyCode',
    'beneficiaryId',
    'destinationRail',
    'sourceAssetCode',
    'sourceAccountId',
    'amount',
    'side',
  ];
  it.each(required)('POST /payouts/quote requires %s', async (field) => {
    expectBankError(await bank('POST', '/payouts/quote', omit(payoutQuoteBody(), field)));
  });

  it.each([
    ['beneficiaryId', 'ben_unknown'],
    ['sourceAccountId', 'acc_unknown'],
    ['side', 'BOTH'],
    ['amount', '500'],
    ['amount', -1],
    ['companyCode', 'CMP-OTHER'],
  ])('POST /payouts/quote refuses %s = %j', async (field, value) => {
    expectBankError(await bank('POST', '/payouts/quote', payoutQuoteBody({ [field]: value })));
  });

  it('POST /payouts executes a valid quote: 202, PENDING', async () => {
    const quoteId = await payoutQuote();
    const res = await bank('POST', '/payouts', {
      companyCode: COMPANY,
      quoteId,
      purposeCode: 'BUSINESS_EXPENSES',
      reference: 'INV-2026-001',
      clientReference: 'po-1',
    });
    expectBankOk(res, 202);
    const d = res.body.data;
    expect(typeof d.payoutId).toBe('string');
    expect(typeof d.externalReference).toBe('string');
    expect(d.status).toBe('PENDING');
  });

  it.each(PURPOSE_CODES)('POST /payouts accepts purposeCode %s', async (purposeCode) => {
    const quoteId = await payoutQuote();
    expectBankOk(await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode }), 202);
  });

  it('POST /payouts refuses a missing or unlisted purposeCode', async () => {
    const quoteId = await payoutQuote();
    expectBankError(await bank('POST', '/payouts', { companyCode: COMPANY, quoteId }));
    expectBankError(await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'GIFT' }));
    expectBankError(await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'taxes' }));
  });

  it('POST /payouts refuses missing companyCode / quoteId, unknown quotes and FX quotes', async () => {
    const quoteId = await payoutQuote();
    expectBankError(await bank('POST', '/payouts', { quoteId, purposeCode: 'TAXES' }));
    expectBankError(await bank('POST', '/payouts', { companyCode: COMPANY, purposeCode: 'TAXES' }));
    expectBankError(
      await bank('POST', '/payouts', { companyCode: COMPANY, quoteId: 'q_x', purposeCode: 'TAXES' }),
    );
    const fx = await fxQuote();
    expectBankError(
      await bank('POST', '/payouts', { companyCode: COMPANY, quoteId: fx, purposeCode: 'TAXES' }),
    );
  });

  it('a payout quote is still executable after 60 s', async () => {
    const quoteId = await payoutQuote();
    await advanceClock(sb, 60);
    expectBankOk(
      await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' }),
      202,
    );
  });

  it('executing an expired payout quote is a failure', async () => {
    const quoteId = await payoutQuote();
    await advanceClock(sb, 80);
    expectBankError(await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' }));
  });

  it('executing an already used payout quote again is a failure', async () => {
    const quoteId = await payoutQuote();
    expectBankOk(
      await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' }),
      202,
    );
    expectBankError(await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' }));
  });

  it('GET /payouts/{payoutID} returns the status view', async () => {
    const quoteId = await payoutQuote();
    const created = await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' });
    const id = created.body.data.payoutId;
    const res = await bank('GET', `/payouts/${id}`);
    expectBankOk(res);
    expect(res.body.data.payoutId).toBe(id);
    expect(res.body.data.externalReference).toBe(created.body.data.externalReference);
    expect(res.body.data.status).toBe('PENDING');
  });

  it('GET /payouts/{payoutID} for an unknown id is a failure', async () => {
    expectBankError(await bank('GET', '/payouts/pay_does_not_exist'));
  });

  it('x-request-id idempotency: a repeated payout request returns the same payout', async () => {
    const quoteId = await payoutQuote();
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    const body = { companyCode: COMPANY, quoteId, purposeCode: 'FREIGHT' };
    const a = await raw(sb, 'POST', `${B}/payouts`, { headers, body });
    const b = await raw(sb, 'POST', `${B}/payouts`, { headers, body });
    expectBankOk(a, 202);
    expect(b.status).toBe(202);
    expect(b.body.data.payoutId).toBe(a.body.data.payoutId);
  });

  it('a payout to the seeded US ACH beneficiary from a USD account is accepted', async () => {
    const quoteId = await payoutQuote({
      beneficiaryId: 'ben_us_ach_0001',
      sourceAssetCode: 'USD',
      destinationAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      destinationRail: 'ACH',
    });
    expectBankOk(
      await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'WAGES_SALARY' }),
      202,
    );
  });
});

// ---------------------------------------------------------------------------------------------
describe('Notifications', () => {
  beforeEach(() => sb.reset());
  const prog = () => sb.credentials.programCode;
  const key = () => ({
    agent_code: sb.credentials.agentCode,
    subagent_code: sb.credentials.subagentCode,
    program_code: sb.credentials.programCode,
    company_code: sb.credentials.companyId,
  });
  const webhookSub = (overrides: Record<string, unknown> = {}) => ({
    event_name: 'card_create',
    subscription_type: 'w',
    ...key(),
    created_by: 'qa@demo.test',
    webhook_url: 'https://hooks.example.test/card',
    x_api_key: 'hook-secret-1',
    ...overrides,
  });
  const list = async (): Promise<RawResponse> =>
    notify('POST', `/subscribedwebhook?program_code=${prog()}`, {
      agent_code: sb.credentials.agentCode,
      subagent_code: sb.credentials.subagentCode,
    });

  it('GET /getallwebhooks returns the event catalog', async () => {
    const res = await notify('GET', `/getallwebhooks?program_code=${prog()}`);
    expect(res.status).toBe(200);
    expect(['success', 'SUCCESS']).toContain(res.body.status);
    expect(Array.isArray(res.body.data)).toBe(true);
    for (const e of res.body.data) {
      expect(typeof e.event_description).toBe('string');
      expect(typeof e.event_name).toBe('string');
      expect(e.program_code).toBe(prog());
    }
    expect(res.body.data.map((e: { event_name: string }) => e.event_name).sort()).toEqual(
      [...CATALOG].sort(),
    );
  });

  it('GET /getallwebhooks requires program_code and x-api-key, not a bearer token', async () => {
    expectNotifyError(await notify('GET', '/getallwebhooks'));
    const noKey = await notify('GET', `/getallwebhooks?program_code=${prog()}`, undefined, {
      'x-api-key': undefined,
    });
    expect(noKey.status).toBeGreaterThanOrEqual(400);
    expect(noKey.body.status).toBe('error');
    const wrongKey = await notify('GET', `/getallwebhooks?program_code=${prog()}`, undefined, {
      'x-api-key': 'nope',
    });
    expect(wrongKey.status).toBeGreaterThanOrEqual(400);
    expect(wrongKey.body.status).toBe('error');
  });

  it('POST /subscribedwebhook returns the seeded subscriptions as a bare array', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(2);
    const names = res.body.map((s: { event_name: string }) => s.event_name).sort();
    expect(names).toEqual(['kyc_complete', 'm2p_transfer']);
    for (const s of res.body) {
      for (const f of [
        'event_name',
        'subscription_type',
        'agent_code',
        'subagent_code',
        'program_code',
        'company_code',
        'webhook_url',
        'sender_email',
        'created_by',
        'updated_by',
        'created_time',
        'updated_time',
        'sl_no',
      ]) {
        expect(s, f).toHaveProperty(f);
      }
      expect(s.subscription_type).toBe('n');
      expect(Number.isInteger(s.sl_no)).toBe(true);
      expect(s.created_time).toMatch(HTTP_DATE);
      expect(s.updated_time).toMatch(HTTP_DATE);
      expect(s.created_by).toBe('sandbox-seed');
      expect(s.sender_email).toBe('notifications@sandbox.bankops.test');
    }
    expect(res.body.map((s: { sl_no: number }) => s.sl_no).sort()).toEqual([1, 2]);
  });

  it('POST /subscribedwebhook requires program_code, agent_code and subagent_code', async () => {
    expectNotifyError(
      await notify('POST', '/subscribedwebhook', {
        agent_code: sb.credentials.agentCode,
        subagent_code: sb.credentials.subagentCode,
      }),
    );
    expectNotifyError(
      await notify('POST', `/subscribedwebhook?program_code=${prog()}`, {
        subagent_code: sb.credentials.subagentCode,
      }),
    );
    expectNotifyError(
      await notify('POST', `/subscribedwebhook?program_code=${prog()}`, {
        agent_code: sb.credentials.agentCode,
      }),
    );
  });

  it('POST /subscribe (type w) creates a webhook subscription visible in the list', async () => {
    const res = await notify('POST', '/subscribe', webhookSub());
    expectNotifyOk(res);
    const l = await list();
    const s = l.body.find((x: { event_name: string }) => x.event_name === 'card_create');
    expect(s).toBeDefined();
    expect(s.subscription_type).toBe('w');
    expect(s.webhook_url).toBe('https://hooks.example.test/card');
    expect(s.created_by).toBe('qa@demo.test');
    expect(s.updated_by).toBeNull();
    expect(s.sl_no).toBe(3);
    expect(s.created_time).toMatch(HTTP_DATE);
    expect(s.agent_code).toBe(sb.credentials.agentCode);
    expect(s.company_code).toBe(sb.credentials.companyId);
  });

  it('POST /subscribe needs no bearer token (works with only x-api-key and Content-Type)', async () => {
    const res = await raw(sb, 'POST', `${N}/subscribe`, {
      headers: { 'content-type': 'application/json', 'x-api-key': sb.credentials.apiKey },
      body: webhookSub({ event_name: 'wallet_create' }),
    });
    expectNotifyOk(res);
  });

  it('POST /subscribe accepts the API key field spelled x-api-key (field list spelling)', async () => {
    const body: Record<string, unknown> = webhookSub({ event_name: 'card_status' });
    delete body.x_api_key;
    body['x-api-key'] = 'hook-secret-2';
    expectNotifyOk(await notify('POST', '/subscribe', body));
  });

  it('POST /subscribe (type n) needs neither webhook_url nor an API key', async () => {
    const res = await notify('POST', '/subscribe', {
      event_name: 'card_activate',
      subscription_type: 'n',
      ...key(),
      created_by: 'qa@demo.test',
    });
    expectNotifyOk(res);
  });

  it('POST /subscribe (type n) with a whitelisted sender_email keeps it', async () => {
    const res = await notify('POST', '/subscribe', {
      event_name: 'card_activate',
      subscription_type: 'n',
      ...key(),
      created_by: 'qa@demo.test',
      sender_email: sb.credentials.userEmail,
    });
    expectNotifyOk(res);
    const s = (await list()).body.find((x: { event_name: string }) => x.event_name === 'card_activate');
    expect(s.sender_email).toBe(sb.credentials.userEmail);
  });

  it('POST /subscribe (type n) with a non-whitelisted sender_email uses the system sender', async () => {
    const res = await notify('POST', '/subscribe', {
      event_name: 'card_activate',
      subscription_type: 'n',
      ...key(),
      created_by: 'qa@demo.test',
      sender_email: 'random@elsewhere.test',
    });
    expectNotifyOk(res);
    const s = (await list()).body.find((x: { event_name: string }) => x.event_name === 'card_activate');
    expect(s.sender_email).not.toBe('random@elsewhere.test');
  });

  it.each([
    'event_name',
    'subscription_type',
    'agent_code',
    'subagent_code',
    'program_code',
    'company_code',
    'created_by',
  ])('POST /subscribe requires %s', async (field) => {
    expectNotifyError(await notify('POST', '/subscribe', omit(webhookSub(), field)));
  });

  it('POST /subscribe type w requires webhook_url and the API key field', async () => {
    expectNotifyError(await notify('POST', '/subscribe', omit(webhookSub(), 'webhook_url')));
    expectNotifyError(await notify('POST', '/subscribe', omit(webhookSub(), 'x_api_key')));
  });

  it('POST /subscribe refuses a subscription_type other than w or n', async () => {
    expectNotifyError(await notify('POST', '/subscribe', webhookSub({ subscription_type: 'x' })));
  });

  it('POST /subscribe with a body but without Content-Type: application/json is refused', async () => {
    expectNotifyError(await notify('POST', '/subscribe', webhookSub(), { 'content-type': undefined }));
  });

  it('POST /subscribe without x-api-key is refused', async () => {
    const res = await notify('POST', '/subscribe', webhookSub(), { 'x-api-key': undefined });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.status).toBe('error');
  });

  it('one subscription per event, program, company, agent and sub-agent: a duplicate POST is refused', async () => {
    expectNotifyOk(await notify('POST', '/subscribe', webhookSub()));
    expectNotifyError(
      await notify('POST', '/subscribe', webhookSub({ webhook_url: 'https://other.example.test/x' })),
    );
    // the seeded kyc_complete subscription counts too
    expectNotifyError(await notify('POST', '/subscribe', webhookSub({ event_name: 'kyc_complete' })));
  });

  it('PATCH /subscribe changes a subscription (n → w) and records updated_by', async () => {
    const res = await notify('PATCH', '/subscribe', {
      event_name: 'kyc_complete',
      subscription_type: 'w',
      ...key(),
      updated_by: 'qa-updater',
      webhook_url: 'https://hooks.example.test/kyc',
      x_api_key: 'k-1',
    });
    expectNotifyOk(res);
    const s = (await list()).body.find((x: { event_name: string }) => x.event_name === 'kyc_complete');
    expect(s.subscription_type).toBe('w');
    expect(s.webhook_url).toBe('https://hooks.example.test/kyc');
    expect(s.updated_by).toBe('qa-updater');
    expect(s.updated_time).toMatch(HTTP_DATE);
    expect(s.sl_no).toBe(1);
  });

  it.each([
    'event_name',
    'subscription_type',
    'agent_code',
    'subagent_code',
    'program_code',
    'company_code',
    'updated_by',
  ])('PATCH /subscribe requires %s', async (field) => {
    const body = {
      event_name: 'kyc_complete',
      subscription_type: 'n',
      ...key(),
      updated_by: 'qa-updater',
    };
    expectNotifyError(await notify('PATCH', '/subscribe', omit(body, field)));
  });

  it('PATCH /subscribe to type w without webhook_url is refused', async () => {
    expectNotifyError(
      await notify('PATCH', '/subscribe', {
        event_name: 'kyc_complete',
        subscription_type: 'w',
        ...key(),
        updated_by: 'qa-updater',
      }),
    );
  });

  it('PATCH /subscribe of a subscription that does not exist is a failure', async () => {
    expectNotifyError(
      await notify('PATCH', '/subscribe', {
        event_name: 'card_status',
        subscription_type: 'n',
        ...key(),
        updated_by: 'qa-updater',
      }),
    );
  });

  it('DELETE /subscribe removes a subscription; deleting again is a failure', async () => {
    const body = { event_name: 'm2p_transfer', ...key() };
    expectNotifyOk(await notify('DELETE', '/subscribe', body));
    const names = (await list()).body.map((s: { event_name: string }) => s.event_name);
    expect(names).toEqual(['kyc_complete']);
    expectNotifyError(await notify('DELETE', '/subscribe', body));
    // after deletion the key is free again
    expectNotifyOk(
      await notify(
        'POST',
        '/subscribe',
        webhookSub({ event_name: 'm2p_transfer', webhook_url: 'https://h.example.test/m' }),
      ),
    );
  });

  it.each(['event_name', 'agent_code', 'subagent_code', 'program_code', 'company_code'])(
    'DELETE /subscribe requires %s',
    async (field) => {
      expectNotifyError(
        await notify('DELETE', '/subscribe', omit({ event_name: 'm2p_transfer', ...key() }, field)),
      );
    },
  );

  it('subscriptions are scoped by agent and sub-agent in the list', async () => {
    const res = await notify('POST', `/subscribedwebhook?program_code=${prog()}`, {
      agent_code: 'AGT-OTHER',
      subagent_code: 'SUB-OTHER',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('the same event may be subscribed for a different agent', async () => {
    expectNotifyOk(
      await notify('POST', '/subscribe', webhookSub({ event_name: 'kyc_complete', agent_code: 'AGT-TWO' })),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Deeper checks: documented sandbox choices on points the spec leaves open, and cross-endpoint effects.
// ---------------------------------------------------------------------------------------------
describe('Documented choices: authentication and headers', () => {
  it('documented choice: credential and token failures answer 401 (the spec only shows 400)', async () => {
    const wrongKey = await raw(sb, 'POST', TOKEN_PATH, {
      headers: { ...tokenHeaders(), 'x-api-key': 'nope' },
    });
    expect(wrongKey.status).toBe(401);
    const badToken = await bank('GET', `/accounts?companyCode=${COMPANY}`, undefined, {
      authorization: 'Bearer not-a-token',
    });
    expect(badToken.status).toBe(401);
    expect(badToken.body).toMatchObject({ code: 401, status: 'error' });
  });

  it('a missing Authorization is a missing required header: 400 naming it', async () => {
    const noToken = await bank('GET', `/accounts?companyCode=${COMPANY}`, undefined, {
      authorization: undefined,
    });
    expectBankError(noToken);
    expect(noToken.body.message).toContain('Authorization');
  });

  it('documented choice: a missing (not wrong) header is 400 naming it', async () => {
    const res = await bank('GET', `/accounts?companyCode=${COMPANY}`, undefined, {
      'x-product-id': undefined,
    });
    expectBankError(res);
    expect(res.body.message).toContain('x-product-id');
  });

  it('the token endpoint and the user lookup require Content-Type as well (400 naming it)', async () => {
    const tok = await raw(sb, 'POST', TOKEN_PATH, {
      headers: { ...tokenHeaders(), 'content-type': undefined },
    });
    expect(tok.status).toBe(400);
    expect(tok.body.message).toContain('Content-Type');
    const usr = await raw(sb, 'GET', `${B}/users?email=${encodeURIComponent(sb.credentials.userEmail)}`, {
      headers: { ...h.USERS(), 'content-type': undefined },
    });
    expectBankError(usr);
    expect(usr.body.message).toContain('Content-Type');
  });

  it('the Bearer scheme name is case-insensitive', async () => {
    const token = await tokenFor(sb);
    const res = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, {
      headers: { ...h.HB(token), authorization: `bearer ${token}` },
    });
    expectBankOk(res);
  });

  it('a token expires exactly 1800 s after issue (payload exp = iat + 1800)', async () => {
    const token = await tokenFor(sb);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload.exp - payload.iat).toBe(1800);
    await advanceClock(sb, 1800);
    const res = await raw(sb, 'GET', `${B}/accounts?companyCode=${COMPANY}`, { headers: h.HB(token) });
    expect(res.status).toBe(401);
  });

  it('the user lookup refuses a wrong x-product-id or x-api-key', async () => {
    const path = `${B}/users?email=${encodeURIComponent(sb.credentials.userEmail)}`;
    expectAuthError(await raw(sb, 'GET', path, { headers: { ...h.USERS(), 'x-product-id': 'nope' } }));
    expectAuthError(await raw(sb, 'GET', path, { headers: { ...h.USERS(), 'x-api-key': 'nope' } }));
  });

  it('unknown banking paths and wrong methods are failures in the banking envelope', async () => {
    const unknown = await bank('GET', `/accountz?companyCode=${COMPANY}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.status).toBe('error');
    const wrongMethod = await bank('DELETE', `/accounts?companyCode=${COMPANY}`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.status).toBe('error');
  });
});

describe('Documented choices: accounts and balances', () => {
  beforeEach(() => sb.reset());

  it('default page size is 10; pageSize above 100 is capped to 100, below 1 refused; pageNumber counts from 1; past the end is empty', async () => {
    const def = await bank('GET', `/accounts?companyCode=${COMPANY}`);
    expect(def.body.data.pageSize).toBe(10);
    expect(def.body.data.pageNumber).toBe(1);
    const capped = await bank('GET', `/accounts?companyCode=${COMPANY}&pageSize=101`);
    expectBankOk(capped);
    expect(capped.body.data.pageSize).toBe(100);
    expect(capped.body.data.items).toHaveLength(5);
    expectBankError(await bank('GET', `/accounts?companyCode=${COMPANY}&pageSize=0`));
    expectBankError(await bank('GET', `/accounts?companyCode=${COMPANY}&pageNumber=0`));
    expectBankError(await bank('GET', `/accounts?companyCode=${COMPANY}&pageNumber=-1`));
    const past = await bank('GET', `/accounts?companyCode=${COMPANY}&pageNumber=9`);
    expectBankOk(past);
    expect(past.body.data.items).toEqual([]);
    expect(past.body.data.total).toBe(5);
  });

  it('currency filter: an unknown currency gives an empty list; a lower-case code is refused', async () => {
    const unknown = await bank('GET', `/accounts?companyCode=${COMPANY}&currency=CHF`);
    expectBankOk(unknown);
    expect(unknown.body.data.items).toEqual([]);
    expect(unknown.body.data.total).toBe(0);
    expectBankError(await bank('GET', `/accounts?companyCode=${COMPANY}&currency=usd`));
    // The beneficiary options filter follows the same rule.
    const options = await bank('GET', '/beneficiaries/options?currency=usd');
    expectBankError(options);
    expect(options.body.message).toContain('currency');
  });

  it('the account balance by id is the currency-balance entry of the account currency', async () => {
    const res = await bank('GET', `/accounts/acc_eur_0001/balance?companyCode=${COMPANY}`);
    expectBankOk(res);
    const d = res.body.data;
    expect(d.currency).toBe('EUR');
    expect(d.accountIds).toEqual(['acc_eur_0001']);
    expect(d.status).toBe('ACTIVE');
    expect(d.availableBalance).toBe(120000);
    for (const f of ['prepaidBalance', 'marginBalance', 'frozenBalance']) expect(d[f]).toBe(0);
    expect(d).toHaveProperty('asOf');
  });

  it('balance entries: status ACTIVE, asOf ISO 8601 UTC or null, errors empty', async () => {
    const res = await bank('GET', `/accounts/balances?companyCode=${COMPANY}`);
    for (const b of res.body.data.balances) {
      expect(b.status).toBe('ACTIVE');
      if (b.asOf !== null) expect(b.asOf).toMatch(ISO_UTC);
    }
    expect(res.body.data.errors).toEqual([]);
  });

  it('the detail balance equals the currency balance; balanceAvailable true also without bank details', async () => {
    const sgd = await bank('GET', `/accounts/acc_sgd_0001?companyCode=${COMPANY}`);
    expect(sgd.body.data.balanceAvailable).toBe(true);
    expect(sgd.body.data.balanceUnavailableReason).toBeNull();
    expect(sgd.body.data.balance.availableBalance).toBe(40000);
    const list = await bank('GET', `/accounts?companyCode=${COMPANY}&currency=SGD`);
    expect(list.body.data.items[0].rails).toEqual([]);
  });
});

describe('Documented choices: beneficiaries', () => {
  beforeEach(() => sb.reset());

  async function servedSchema(query: string) {
    const res = await bank('GET', `/beneficiaries/schema?${query}`);
    expectBankOk(res);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    return ajv.compile(res.body.data);
  }

  it('the served schema is a valid draft 2020-12 schema that accepts the request the endpoint accepts', async () => {
    const validate = await servedSchema(
      'currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US&clearingSystem=ACH',
    );
    expect(validate(achBeneficiary()), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(withBank({}, ['routingCodeType']))).toBe(false);
    expect(validate(withBank({ routingCodeType: 'aba' }))).toBe(false);
  });

  it('the general schema applies the ACH rule through allOf if/then', async () => {
    const validate = await servedSchema('currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US');
    expect(validate(achBeneficiary())).toBe(true);
    expect(validate(withBank({}, ['routingCodeValue']))).toBe(false);
    expect(validate(withBank({ extras: { clearingSystem: 'LOCAL' } }, ['accountNumber']))).toBe(false);
  });

  it('with clearingSystem the rail demands are folded into required', async () => {
    const res = await bank(
      'GET',
      '/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US&clearingSystem=FEDWIRE',
    );
    const bankS = res.body.data.properties.bank;
    expect(bankS.properties.extras.properties.clearingSystem.enum).toEqual(['FEDWIRE']);
    for (const r of [
      'accountNumber',
      'routingCodeType',
      'routingCodeValue',
      'swiftCode',
      'bankName',
      'bankAddress',
    ]) {
      expect(bankS.required).toContain(r);
    }
    expect(bankS.properties.routingCodeType.const).toBe('aba');
    expect([...res.body.data.properties.address.required].sort()).toEqual(
      ['city', 'country', 'postalCode', 'state', 'streetAddress'].sort(),
    );
  });

  it('schema: country defaults to the home country; an unknown corridor or rail is refused', async () => {
    const noCountry = await bank(
      'GET',
      '/beneficiaries/schema?currency=EUR&entityType=COMPANY&paymentMethod=SWIFT',
    );
    expectBankOk(noCountry);
    expect(noCountry.body.data.required).toContain('companyName');
    expectBankError(
      await bank(
        'GET',
        '/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=SG',
      ),
    );
    expectBankError(
      await bank(
        'GET',
        '/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US&clearingSystem=RTP',
      ),
    );
  });

  it('displayName is optional on create, as in the served schema; an empty one is refused', async () => {
    const validate = await servedSchema('currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=US');
    const body = omit(achBeneficiary(), 'displayName');
    expect(validate(body)).toBe(true);
    const res = await bank('POST', '/beneficiaries', body);
    expectBankOk(res);
    expect(typeof res.body.data.beneficiary_id).toBe('string');
    const empty = await bank('POST', '/beneficiaries', achBeneficiary({ displayName: '' }));
    expectBankError(empty);
    expect(empty.body.message).toContain('displayName');
  });

  it('documented choice: fields the corridor schema does not list are ignored, not refused', async () => {
    expectBankOk(await bank('POST', '/beneficiaries', achBeneficiary({ companyName: 'Not Applicable Ltd' })));
    expectBankOk(await bank('POST', '/beneficiaries', achBeneficiary({ unknownField: 'x' })));
  });

  it('a bank country outside every corridor is refused on create', async () => {
    expectBankError(await bank('POST', '/beneficiaries', withBank({ bankCountry: 'SG' })));
  });

  it('null for an optional field counts as a wrong type', async () => {
    expectBankError(await bank('POST', '/beneficiaries', achBeneficiary({ email: null })));
  });

  it('the create answer carries beneficiary_id and nothing else', async () => {
    const res = await bank('POST', '/beneficiaries', achBeneficiary());
    expect(Object.keys(res.body.data)).toEqual(['beneficiary_id']);
  });

  it('concurrent repeats of one x-request-id create one beneficiary', async () => {
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => raw(sb, 'POST', `${B}/beneficiaries`, { headers, body: achBeneficiary() })),
    );
    const ids = new Set(answers.map((a) => a.body.data.beneficiary_id));
    expect(ids.size).toBe(1);
  });

  it('the x-request-id scope is per operation (a beneficiary id may be reused for a quote)', async () => {
    const token = await tokenFor(sb);
    const headers = h.HB(token);
    expectBankOk(await raw(sb, 'POST', `${B}/beneficiaries`, { headers, body: achBeneficiary() }));
    expectBankOk(await raw(sb, 'POST', `${B}/conversions/quote`, { headers, body: fxQuoteBody() }));
  });
});

describe('Documented choices: conversions', () => {
  beforeEach(() => sb.reset());

  async function usd(): Promise<{ available: number; frozen: number }> {
    const res = await bank('GET', `/accounts/balances?companyCode=${COMPANY}`);
    const e = res.body.data.balances.find((b: { currency: string }) => b.currency === 'USD');
    return { available: e.availableBalance, frozen: e.frozenBalance };
  }

  it('rate = mid-rate less the 0.3 % spread; currencyPair is source+target; no fees', async () => {
    const res = await bank('POST', '/conversions/quote', fxQuoteBody());
    const q = res.body.data;
    expect(q.rate).toBeCloseTo((1 / 1.085) * 0.997, 6);
    expect(q.currencyPair).toBe('USDEUR');
    expect(q.processingFee).toBe(0);
    expect(q.networkFee).toBe(0);
    expect(q.feeAssetCode).toBeNull();
    expect(q.targetAmount).toBe(Math.round(1000 * q.rate * 100) / 100);
  });

  it('amounts are rounded to the currency minor unit (JPY has none)', async () => {
    const res = await bank(
      'POST',
      '/conversions/quote',
      fxQuoteBody({ targetAssetCode: 'JPY', amount: 10.555 }),
    );
    expectBankOk(res);
    expect(Number.isInteger(res.body.data.targetAmount)).toBe(true);
    expect(res.body.data.sourceAmount).toBe(10.56);
  });

  it('refuses equal source and target, unknown currencies and an amount that rounds to 0', async () => {
    expectBankError(await bank('POST', '/conversions/quote', fxQuoteBody({ targetAssetCode: 'USD' })));
    expectBankError(await bank('POST', '/conversions/quote', fxQuoteBody({ targetAssetCode: 'CHF' })));
    expectBankError(await bank('POST', '/conversions/quote', fxQuoteBody({ amount: 0.001 })));
  });

  it('an FX quote executes at 74 s and is refused at 76 s', async () => {
    const q1 = await fxQuote();
    await advanceClock(sb, 74);
    expectBankOk(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: q1 }), 202);
    const q2 = await fxQuote();
    await advanceClock(sb, 76);
    expectBankError(await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: q2 }));
  });

  it('externalReference echoes clientReference, else a generated reference; an empty clientReference is refused', async () => {
    const a = await bank('POST', '/conversions', {
      companyCode: COMPANY,
      quoteId: await fxQuote(),
      clientReference: 'abc-1',
    });
    expect(a.body.data.externalReference).toBe('abc-1');
    const b = await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: await fxQuote() });
    expect(b.body.data.externalReference).toMatch(/^ref_/);
    expectBankError(
      await bank('POST', '/conversions', {
        companyCode: COMPANY,
        quoteId: await fxQuote(),
        clientReference: '',
      }),
    );
  });

  it('documented choice (risky): balances move at creation although the conversion is "not yet settled"', async () => {
    const before = await usd();
    const q = await bank('POST', '/conversions/quote', fxQuoteBody());
    const res = await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: q.body.data.quoteId });
    expect(res.body.data.status).toBe('EXECUTING');
    const after = await usd();
    expect(after.available).toBe(before.available - 1000);
    const all = await bank('GET', `/accounts/balances?companyCode=${COMPANY}`);
    const eur = all.body.data.balances.find((b: { currency: string }) => b.currency === 'EUR');
    expect(eur.availableBalance).toBeCloseTo(120000 + q.body.data.targetAmount, 2);
  });

  it('documented choice: EXECUTING becomes COMPLETED 60 s after creation', async () => {
    const res = await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: await fxQuote() });
    const id = res.body.data.conversionId;
    await advanceClock(sb, 59);
    expect((await bank('GET', `/conversions/${id}`)).body.data.status).toBe('EXECUTING');
    await advanceClock(sb, 2);
    expect((await bank('GET', `/conversions/${id}`)).body.data.status).toBe('COMPLETED');
  });

  it('insufficient funds is refused and does not use the quote', async () => {
    const q = await fxQuote({ sourceAssetCode: 'JPY', targetAssetCode: 'EUR', amount: 10 });
    const refused = await bank('POST', '/conversions', { companyCode: COMPANY, quoteId: q });
    expectBankError(refused);
    expect(refused.body.message).toContain('insufficient');
  });

  it('a repeat after the quote expired still returns the first answer (idempotent replay)', async () => {
    const quoteId = await fxQuote();
    const token = await tokenFor(sb);
    const rid = randomUUID();
    const body = { companyCode: COMPANY, quoteId };
    const first = await raw(sb, 'POST', `${B}/conversions`, {
      headers: { ...h.HB(token), 'x-request-id': rid },
      body,
    });
    expectBankOk(first, 202);
    await advanceClock(sb, 100);
    const fresh = await tokenFor(sb);
    const again = await raw(sb, 'POST', `${B}/conversions`, {
      headers: { ...h.HB(fresh), 'x-request-id': rid },
      body,
    });
    expect(again.status).toBe(202);
    expect(again.body.data.conversionId).toBe(first.body.data.conversionId);
  });
});

describe('Documented choices: payouts', () => {
  beforeEach(() => sb.reset());

  async function balance(currency: string): Promise<{ available: number; frozen: number }> {
    const res = await bank('GET', `/accounts/balances?companyCode=${COMPANY}`);
    const e = res.body.data.balances.find((b: { currency: string }) => b.currency === currency);
    return { available: e.availableBalance, frozen: e.frozenBalance };
  }

  it('SWIFT fees: processing 15, network 10, platform 0.1 %, in the funding currency; total = amount + fees', async () => {
    const q = (await bank('POST', '/payouts/quote', payoutQuoteBody({ amount: 1000 }))).body.data;
    expect(q.processingFee).toBe(15);
    expect(q.networkFee).toBe(10);
    expect(q.platformFee).toBe(1);
    expect(q.feeAssetCode).toBe('EUR');
    expect(q.fxRate).toBe(1);
    expect(q.totalDebitAmount).toBe(1026);
  });

  it('non-SWIFT rails: processing 1 and networkFee null', async () => {
    const q = (
      await bank(
        'POST',
        '/payouts/quote',
        payoutQuoteBody({
          beneficiaryId: 'ben_us_ach_0001',
          destinationRail: 'ACH',
          sourceAssetCode: 'USD',
          destinationAssetCode: 'USD',
          sourceAccountId: 'acc_usd_0001',
          amount: 100,
        }),
      )
    ).body.data;
    expect(q.processingFee).toBe(1);
    expect(q.networkFee).toBeNull();
    expect(q.totalDebitAmount).toBe(101.1);
  });

  it('sourceAssetCode must be the funding account currency; destinationAssetCode must be the beneficiary currency', async () => {
    expectBankError(await bank('POST', '/payouts/quote', payoutQuoteBody({ sourceAssetCode: 'USD' })));
    expectBankError(await bank('POST', '/payouts/quote', payoutQuoteBody({ destinationAssetCode: 'USD' })));
  });

  it('documented choice (risky): destinationRail is not matched against the beneficiary corridor', async () => {
    expectBankOk(await bank('POST', '/payouts/quote', payoutQuoteBody({ destinationRail: 'ACH' })));
    expectBankError(
      await bank('POST', '/payouts/quote', payoutQuoteBody({ destinationRail: 'CARRIER_PIGEON' })),
    );
  });

  it('a quote larger than the balance is given, but executing it is refused for insufficient funds', async () => {
    const quoteId = await payoutQuote({ amount: 50_000_000 });
    const res = await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' });
    expectBankError(res);
    expect(res.body.message).toContain('insufficient');
  });

  it('empty reference or clientReference is refused', async () => {
    expectBankError(
      await bank('POST', '/payouts', {
        companyCode: COMPANY,
        quoteId: await payoutQuote(),
        purposeCode: 'TAXES',
        reference: '',
      }),
    );
    expectBankError(
      await bank('POST', '/payouts', {
        companyCode: COMPANY,
        quoteId: await payoutQuote(),
        purposeCode: 'TAXES',
        clientReference: '',
      }),
    );
  });

  it('lifecycle: PENDING (held in frozenBalance) → PROCESSING at 30 s → COMPLETED at 120 s', async () => {
    const before = await balance('USD');
    const quote = (
      await bank(
        'POST',
        '/payouts/quote',
        payoutQuoteBody({
          beneficiaryId: 'ben_us_ach_0001',
          destinationRail: 'ACH',
          sourceAssetCode: 'USD',
          destinationAssetCode: 'USD',
          sourceAccountId: 'acc_usd_0001',
          amount: 100,
        }),
      )
    ).body.data;
    const created = await bank('POST', '/payouts', {
      companyCode: COMPANY,
      quoteId: quote.quoteId,
      purposeCode: 'TAXES',
    });
    const id = created.body.data.payoutId;
    const held = await balance('USD');
    expect(held.available).toBeCloseTo(before.available - quote.totalDebitAmount, 2);
    expect(held.frozen).toBeCloseTo(quote.totalDebitAmount, 2);
    await advanceClock(sb, 31);
    expect((await bank('GET', `/payouts/${id}`)).body.data.status).toBe('PROCESSING');
    await advanceClock(sb, 90);
    expect((await bank('GET', `/payouts/${id}`)).body.data.status).toBe('COMPLETED');
    const done = await balance('USD');
    expect(done.frozen).toBe(0);
    expect(done.available).toBeCloseTo(before.available - quote.totalDebitAmount, 2);
  });

  it('a payout to ben_us_fail_0001 fails at 120 s and the held amount returns', async () => {
    const before = await balance('USD');
    const quoteId = await payoutQuote({
      beneficiaryId: 'ben_us_fail_0001',
      destinationRail: 'FEDWIRE',
      sourceAssetCode: 'USD',
      destinationAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0002',
      amount: 100,
    });
    const created = await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' });
    expectBankOk(created, 202);
    await advanceClock(sb, 121);
    expect((await bank('GET', `/payouts/${created.body.data.payoutId}`)).body.data.status).toBe('FAILED');
    const after = await balance('USD');
    expect(after.available).toBe(before.available);
    expect(after.frozen).toBe(0);
  });

  it('the SGD account (no bank details) can fund a payout', async () => {
    const quoteId = await payoutQuote({
      beneficiaryId: 'ben_us_ach_0001',
      destinationRail: 'ACH',
      sourceAssetCode: 'SGD',
      destinationAssetCode: 'USD',
      sourceAccountId: 'acc_sgd_0001',
      amount: 100,
    });
    expectBankOk(
      await bank('POST', '/payouts', { companyCode: COMPANY, quoteId, purposeCode: 'TAXES' }),
      202,
    );
  });
});

describe('Events and documented notification choices', () => {
  beforeEach(() => sb.reset());
  const key = () => ({
    agent_code: sb.credentials.agentCode,
    subagent_code: sb.credentials.subagentCode,
    program_code: sb.credentials.programCode,
    company_code: sb.credentials.companyId,
  });
  const list = async (): Promise<RawResponse> =>
    notify('POST', `/subscribedwebhook?program_code=${sb.credentials.programCode}`, {
      agent_code: sb.credentials.agentCode,
      subagent_code: sb.credentials.subagentCode,
    });
  const find = async (event: string) =>
    (await list()).body.find((s: { event_name: string }) => s.event_name === event);

  it('the catalog descriptions are the meanings the spec gives', async () => {
    const res = await notify('GET', `/getallwebhooks?program_code=${sb.credentials.programCode}`);
    const meaning: Record<string, string> = {
      card_create: 'card creation',
      card_activate: 'card activated',
      card_status: 'card status change',
      card_configuration: 'card configuration change',
      card_enroll3DS: 'card enrollment in 3DS',
      card_update3DSmethod: '3DS method update',
      cardholder_create: 'cardholder creation',
      cardholder_update: 'cardholder update',
      wallet_create: 'wallet creation',
      p2p_transfer: 'peer-to-peer transfer',
      m2p_transfer: 'master-to-peer transfer',
      kyc_complete: 'KYC completed',
      kyc_rfi_responded: 'RFI responded',
    };
    for (const e of res.body.data) expect(e.event_description, e.event_name).toBe(meaning[e.event_name]);
  });

  it('documented choice: account.submitted and conversion.cancelled (records only) are not subscribable', async () => {
    for (const event_name of ['account.submitted', 'conversion.cancelled']) {
      expectNotifyError(
        await notify('POST', '/subscribe', {
          event_name,
          subscription_type: 'n',
          ...key(),
          created_by: 'qa',
        }),
      );
    }
  });

  it('an unknown program_code or company_code is refused; webhook_url must be an absolute http(s) URL', async () => {
    expectNotifyError(await notify('GET', '/getallwebhooks?program_code=PRG-NOPE'));
    const base = {
      event_name: 'card_create',
      subscription_type: 'w',
      ...key(),
      created_by: 'qa',
      webhook_url: 'https://h.example.test/x',
      x_api_key: 'k',
    };
    expectNotifyError(await notify('POST', '/subscribe', { ...base, company_code: 'CMP-NOPE' }));
    expectNotifyError(await notify('POST', '/subscribe', { ...base, program_code: 'PRG-NOPE' }));
    expectNotifyError(await notify('POST', '/subscribe', { ...base, webhook_url: 'not a url' }));
  });

  it('documented choice (risky): the API key field is listed as x_api_key and masked', async () => {
    expectNotifyOk(
      await notify('POST', '/subscribe', {
        event_name: 'card_create',
        subscription_type: 'w',
        ...key(),
        created_by: 'qa',
        webhook_url: 'https://h.example.test/x',
        'x-api-key': 'a-long-webhook-secret-1234',
      }),
    );
    const s = await find('card_create');
    expect(s.x_api_key).toBe('********1234');
    expect(s).not.toHaveProperty('x-api-key');
    const seeded = await find('kyc_complete');
    expect(seeded.x_api_key).toBeNull();
  });

  it('both spellings of the API key with different values are refused', async () => {
    expectNotifyError(
      await notify('POST', '/subscribe', {
        event_name: 'card_create',
        subscription_type: 'w',
        ...key(),
        created_by: 'qa',
        webhook_url: 'https://h.example.test/x',
        x_api_key: 'one',
        'x-api-key': 'two',
      }),
    );
  });

  it('fields that do not apply are stored as null; a non-whitelisted sender becomes the system sender', async () => {
    expectNotifyOk(
      await notify('POST', '/subscribe', {
        event_name: 'card_create',
        subscription_type: 'w',
        ...key(),
        created_by: 'qa',
        webhook_url: 'https://h.example.test/x',
        x_api_key: 'k',
        sender_email: sb.credentials.userEmail,
      }),
    );
    expect((await find('card_create')).sender_email).toBeNull();
    expectNotifyOk(
      await notify('POST', '/subscribe', {
        event_name: 'wallet_create',
        subscription_type: 'n',
        ...key(),
        created_by: 'qa',
        webhook_url: 'https://h.example.test/x',
        sender_email: 'someone@else.test',
      }),
    );
    const n = await find('wallet_create');
    expect(n.webhook_url).toBeNull();
    expect(n.x_api_key).toBeNull();
    expect(n.sender_email).toBe('notifications@sandbox.bankops.test');
  });

  it('before any update updated_time equals created_time; the list is sorted by sl_no and sl_no is never reused', async () => {
    for (const s of (await list()).body) expect(s.updated_time).toBe(s.created_time);
    expectNotifyOk(await notify('DELETE', '/subscribe', { event_name: 'm2p_transfer', ...key() }));
    expectNotifyOk(
      await notify('POST', '/subscribe', {
        event_name: 'm2p_transfer',
        subscription_type: 'n',
        ...key(),
        created_by: 'qa',
      }),
    );
    expectNotifyOk(
      await notify('POST', '/subscribe', {
        event_name: 'card_create',
        subscription_type: 'n',
        ...key(),
        created_by: 'qa',
      }),
    );
    const sl = (await list()).body.map((s: { sl_no: number }) => s.sl_no);
    expect(sl).toEqual([1, 3, 4]);
  });

  it('PATCH to n clears webhook_url and key; PATCH to w keeps a stored URL', async () => {
    expectNotifyOk(
      await notify('POST', '/subscribe', {
        event_name: 'card_create',
        subscription_type: 'w',
        ...key(),
        created_by: 'qa',
        webhook_url: 'https://h.example.test/x',
        x_api_key: 'k',
      }),
    );
    expectNotifyOk(
      await notify('PATCH', '/subscribe', {
        event_name: 'card_create',
        subscription_type: 'n',
        ...key(),
        updated_by: 'qa2',
      }),
    );
    const s = await find('card_create');
    expect(s.subscription_type).toBe('n');
    expect(s.webhook_url).toBeNull();
    expect(s.x_api_key).toBeNull();
    expect(s.updated_by).toBe('qa2');
  });

  it('a type w subscription receives the event at webhook_url with its configured API key', async () => {
    const receiver = await startWebhookReceiver();
    try {
      expectNotifyOk(
        await notify('POST', '/subscribe', {
          event_name: 'card_create',
          subscription_type: 'w',
          ...key(),
          created_by: 'qa',
          webhook_url: receiver.url,
          x_api_key: 'delivery-key-0001',
        }),
      );
      const emit = await raw(sb, 'POST', '/_sandbox/notifications/emit', {
        headers: { 'content-type': 'application/json' },
        body: { event_name: 'card_create', data: { cardId: 'c1' } },
      });
      expect(emit.status).toBe(200);
      const [d] = await receiver.waitFor(1, 5000);
      expect(d!.method).toBe('POST');
      expect(d!.headers['x-api-key']).toBe('delivery-key-0001');
      const body = d!.body as { event_name: string; program_code: string; company_code: string };
      expect(body.event_name).toBe('card_create');
      expect(body.program_code).toBe(sb.credentials.programCode);
      expect(body.company_code).toBe(sb.credentials.companyId);
    } finally {
      await receiver.close();
    }
  });

  it('after DELETE the events stop going to the configured URL', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const sub = {
        event_name: 'card_status',
        subscription_type: 'w',
        ...key(),
        created_by: 'qa',
        webhook_url: receiver.url,
        x_api_key: 'k',
      };
      expectNotifyOk(await notify('POST', '/subscribe', sub));
      expectNotifyOk(await notify('DELETE', '/subscribe', { event_name: 'card_status', ...key() }));
      const emitted = await raw(sb, 'POST', '/_sandbox/notifications/emit', {
        headers: { 'content-type': 'application/json' },
        body: { event_name: 'card_status' },
      });
      // The sandbox decides whom to deliver to as it emits (docs/sandbox): nobody, so nothing is on its way.
      expect(emitted.status).toBe(200);
      expect(emitted.body.deliveries).toEqual([]);
      const log = await raw(sb, 'GET', '/_sandbox/notifications/deliveries');
      expect(
        log.body.deliveries.filter((d: { event_id: string }) => d.event_id === emitted.body.event_id),
      ).toEqual([]);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});
