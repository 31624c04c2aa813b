import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  type ResponseEvent,
  type ServiceClient,
  ServiceError,
} from '../../../src/core/client/index.js';
import {
  FAKE_CONFIG,
  injectFault,
  type RecordedRequest,
  rejectionOf,
  startRecordingServer,
} from '../../helpers/client-http.js';
import { advanceClock, clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FAKE_TOKEN = 'fake.jwt-token.sig-55aa';

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

async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

const count = (operation: string): number => sandbox.stats()[operation] ?? 0;
const company = () => ({ companyCode: sandbox.credentials.companyId });
const userQuery = () => ({ email: sandbox.credentials.userEmail });

const tokenAnswer = () => ({
  code: 200,
  status: 'SUCCESS',
  message: 'ok',
  data: {
    token: FAKE_TOKEN,
    tokenType: 'Bearer',
    expiresIn: 1800,
    userId: 'fake-user',
    companyCode: 'FAKE-CO',
    email: 'x@y.z',
  },
});

const BALANCES_OK = { code: 200, status: 'SUCCESS', data: { userId: 'fake-user', balances: [], errors: [] } };

/** Answers the token endpoint; everything else gets `answer`. */
function fakeService(answer: (request: RecordedRequest) => { status: number; body: unknown }) {
  return startRecordingServer((request) =>
    request.url.startsWith('/svc/api/v1/auth/token') ? { status: 200, body: tokenAnswer() } : answer(request),
  );
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A fresh payout quote on the seeded USD account to the seeded ACH beneficiary. */
function payoutQuote(c: ServiceClient = client) {
  return c.payouts.quote({
    ...company(),
    beneficiaryId: 'ben_us_ach_0001',
    destinationRail: 'ACH',
    sourceAssetCode: 'USD',
    destinationAssetCode: 'USD',
    sourceAccountId: 'acc_usd_0001',
    amount: 100,
    side: 'SOURCE',
  });
}

describe('request ids', () => {
  it("sends the caller's requestId as x-request-id and carries it on the ServiceError", async () => {
    const fake = await fakeService(() => ({
      status: 400,
      body: { code: 400, status: 'error', message: 'companyCode: unknown' },
    }));
    const c = createServiceClient({ ...FAKE_CONFIG, baseUrl: fake.url });
    try {
      const error = await serviceError(
        c.accounts.balances({ companyCode: 'X' }, { requestId: 'req-fixed-001' }),
      );
      expect(error.requestId).toBe('req-fixed-001');
      expect(error.message).toContain('req-fixed-001');
      const sent = fake.requests.find((r) => r.url.startsWith('/svc/banking/api/v1/accounts/balances'));
      expect(sent?.headers['x-request-id']).toBe('req-fixed-001');
      // The HB header set travels with it.
      expect(sent?.headers).toMatchObject({
        'x-api-key': FAKE_CONFIG.apiKey,
        'x-product-id': FAKE_CONFIG.productId,
        'x-user-id': FAKE_CONFIG.userId,
        authorization: `Bearer ${FAKE_TOKEN}`,
        'content-type': 'application/json',
      });
    } finally {
      await c.close();
      await fake.close();
    }
  });

  it('generates a UUID per call when none is given, and reports it', async () => {
    const events: ResponseEvent[] = [];
    const c = clientFor(sandbox, { onResponse: (e) => events.push(e) });
    try {
      await c.users.get(userQuery());
      await c.users.get(userQuery());
      const ids = events.filter((e) => e.operation === 'users.get').map((e) => e.requestId);
      expect(ids).toHaveLength(2);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(ids[0]).not.toBe(ids[1]);

      const error = await serviceError(c.users.get({ email: 'nobody@nowhere.test' }));
      expect(error.requestId).toMatch(UUID);
    } finally {
      await c.close();
    }
  });

  it('puts the generated UUID on the wire', async () => {
    const fake = await fakeService(() => ({ status: 200, body: { code: 200, status: 'SUCCESS', data: [] } }));
    const c = createServiceClient({ ...FAKE_CONFIG, baseUrl: fake.url });
    try {
      await c.beneficiaries.options();
      const sent = fake.requests.find((r) => r.url.startsWith('/svc/banking/api/v1/beneficiaries/options'));
      expect(sent?.headers['x-request-id']).toMatch(UUID);
    } finally {
      await c.close();
      await fake.close();
    }
  });
});

describe('service refusals', () => {
  it('surface as kind service with status, envelope code, message, operation and request id', async () => {
    const quote = await payoutQuote();
    await advanceClock(sandbox, 76);
    const error = await serviceError(
      client.payouts.create(
        { ...company(), quoteId: quote.quoteId, purposeCode: 'BILL_PAYMENT' },
        { requestId: 'req-expired-quote' },
      ),
    );
    expect(error).toMatchObject({
      kind: 'service',
      httpStatus: 400,
      serviceCode: 400,
      operation: 'payouts.create',
      requestId: 'req-expired-quote',
      retryable: false,
    });
    expect(error.serviceMessage).toMatch(/expired/i);
    expect(error.message).toContain('payouts.create');
    expect(error.message).toContain(error.serviceMessage);
  });
});

describe('failure kinds', () => {
  it('a hung answer is a timeout', async () => {
    await injectFault(sandbox, { path: '/svc/banking/api/v1/users', timeout: true, times: 1 });
    const started = performance.now();
    const error = await serviceError(client.users.get(userQuery(), { timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(error.operation).toBe('users.get');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a closed port is a network error', async () => {
    const c = createServiceClient({ ...FAKE_CONFIG, baseUrl: await closedPortUrl() });
    try {
      const error = await serviceError(c.users.get({ email: 'a@b.c' }));
      expect(error.kind).toBe('network');
      expect(error.httpStatus).toBeUndefined();
      expect(error.retryable).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('a body that is not JSON is an invalid response', async () => {
    await injectFault(sandbox, { path: '/svc/banking/api/v1/users', malformed: true, times: 1 });
    const error = await serviceError(client.users.get(userQuery()));
    expect(error.kind).toBe('invalid_response');
    expect(error.httpStatus).toBe(200);
  });

  it('a JSON answer of the wrong shape is an invalid response naming the fields', async () => {
    const fake = await fakeService(() => ({
      status: 200,
      body: { code: 200, status: 'SUCCESS', data: { payoutId: 'po_1', status: 7 } },
    }));
    const c = createServiceClient({ ...FAKE_CONFIG, baseUrl: fake.url });
    try {
      const error = await serviceError(c.payouts.get({ payoutId: 'po_1' }));
      expect(error.kind).toBe('invalid_response');
      expect(error.issues.join('\n')).toContain('status');
    } finally {
      await c.close();
      await fake.close();
    }
  });

  it('a request that breaks the schema is refused before sending', async () => {
    const before = count('payouts.create');
    const error = await serviceError(
      client.payouts.create({ ...company(), quoteId: 'q', purposeCode: 'LUNCH' as 'TRAVEL' }),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.issues.join('\n')).toContain('purposeCode');
    expect(count('payouts.create')).toBe(before);
  });
});

describe('retries', () => {
  it('retries a GET after a 503 and succeeds', async () => {
    const c = clientFor(sandbox, { maxRetries: 2 });
    try {
      await c.accounts.balances(company());
      await injectFault(sandbox, {
        path: '/svc/banking/api/v1/accounts/balances',
        method: 'GET',
        status: 503,
        times: 1,
      });
      const before = count('accounts.balances');
      const balances = await c.accounts.balances(company());
      expect(balances.userId).toBe(sandbox.credentials.userId);
      expect(count('accounts.balances') - before).toBe(2);
    } finally {
      await c.close();
    }
  });

  it('gives up on a GET after maxRetries', async () => {
    const c = clientFor(sandbox, { maxRetries: 1 });
    try {
      await injectFault(sandbox, { path: '/svc/banking/api/v1/users', status: 502, times: 5 });
      const before = count('users.get');
      const error = await serviceError(c.users.get(userQuery()));
      expect(error).toMatchObject({ kind: 'service', httpStatus: 502, retryable: true });
      expect(count('users.get') - before).toBe(2);
    } finally {
      await c.close();
    }
  });

  it('retries a GET whose token request failed transiently', async () => {
    let tokenCalls = 0;
    const fake = await startRecordingServer((request) => {
      if (!request.url.startsWith('/svc/api/v1/auth/token')) return { status: 200, body: BALANCES_OK };
      tokenCalls += 1;
      return tokenCalls === 1
        ? { status: 503, body: { code: 503, status: 'error', message: 'busy' } }
        : { status: 200, body: tokenAnswer() };
    });
    const c = createServiceClient({ ...FAKE_CONFIG, baseUrl: fake.url, maxRetries: 1 });
    try {
      const balances = await c.accounts.balances({ companyCode: 'FAKE-CO' });
      expect(balances.userId).toBe('fake-user');
      expect(tokenCalls).toBe(2);
    } finally {
      await c.close();
      await fake.close();
    }
  });

  it('does not count the token refresh after a 401 as one of the retries', async () => {
    const answers = [
      { status: 401, body: { code: 401, status: 'error', message: 'token expired' } },
      { status: 503, body: { code: 503, status: 'error', message: 'busy' } },
      { status: 200, body: BALANCES_OK },
    ];
    let apiCalls = 0;
    const fake = await fakeService(() => {
      apiCalls += 1;
      return answers[apiCalls - 1] ?? { status: 500, body: { status: 'error', message: 'unexpected' } };
    });
    const c = createServiceClient({ ...FAKE_CONFIG, baseUrl: fake.url, maxRetries: 1 });
    try {
      const balances = await c.accounts.balances({ companyCode: 'FAKE-CO' });
      expect(balances.userId).toBe('fake-user');
      expect(apiCalls).toBe(3);
      expect(fake.requests.filter((r) => r.url.startsWith('/svc/api/v1/auth/token'))).toHaveLength(2);
    } finally {
      await c.close();
      await fake.close();
    }
  });

  it('never retries a payout on 503; the caller retries with the same requestId and gets one payout', async () => {
    const c = clientFor(sandbox, { maxRetries: 2 });
    try {
      const quote = await payoutQuote(c);
      await injectFault(sandbox, {
        path: '/svc/banking/api/v1/payouts',
        method: 'POST',
        status: 503,
        times: 1,
      });
      const body = { ...company(), quoteId: quote.quoteId, purposeCode: 'BILL_PAYMENT' as const };
      const requestId = 'req-payout-retry-1';
      const before = count('payouts.create');
      const error = await serviceError(c.payouts.create(body, { requestId }));
      expect(error).toMatchObject({
        kind: 'service',
        httpStatus: 503,
        retryable: true,
        requestId,
        operation: 'payouts.create',
      });
      expect(count('payouts.create') - before).toBe(1);

      const first = await c.payouts.create(body, { requestId });
      const again = await c.payouts.create(body, { requestId });
      expect(first.status).toBe('PENDING');
      expect(again).toEqual(first);
      expect((await c.payouts.get({ payoutId: first.payoutId })).payoutId).toBe(first.payoutId);
      const usd = (await c.accounts.balances(company())).balances.find((b) => b.currency === 'USD');
      expect(usd?.frozenBalance).toBeCloseTo(quote.totalDebitAmount, 2);
      expect(usd?.availableBalance).toBeCloseTo(250_000 - quote.totalDebitAmount, 2);

      // A new request id on the same quote is a second payout attempt, and the used quote refuses it.
      const second = await serviceError(c.payouts.create(body));
      expect(second).toMatchObject({ kind: 'service', httpStatus: 400 });
    } finally {
      await c.close();
    }
  });
});

describe('secrets in errors', () => {
  it('a wrong API key is refused without repeating it', async () => {
    const c = clientFor(sandbox, { apiKey: 'wrong-key-0xdeadbeef' });
    try {
      const error = await serviceError(c.accounts.balances(company()));
      expect(error).toMatchObject({ kind: 'service', httpStatus: 401, operation: 'auth.issueToken' });
      expect(error.message).not.toContain('wrong-key-0xdeadbeef');
      expect(error.serviceMessage).not.toContain('wrong-key-0xdeadbeef');
    } finally {
      await c.close();
    }
  });

  it('redacts the API key and the token even when the service echoes them', async () => {
    const fake = await fakeService((request) => ({
      status: 400,
      body: {
        code: 400,
        status: 'error',
        message: `bad call with key ${String(request.headers['x-api-key'])} and ${String(request.headers.authorization)}`,
      },
    }));
    const c = createServiceClient({ ...FAKE_CONFIG, baseUrl: fake.url });
    try {
      const error = await serviceError(c.accounts.list({ companyCode: 'FAKE-CO' }));
      expect(error.serviceMessage).toContain('bad call with key');
      for (const text of [error.message, error.serviceMessage, String(error)]) {
        expect(text).not.toContain(FAKE_CONFIG.apiKey);
        expect(text).not.toContain(FAKE_TOKEN);
      }
    } finally {
      await c.close();
      await fake.close();
    }
  });

  it('an expired token is replaced after one 401 from the service', async () => {
    const events: ResponseEvent[] = [];
    const c = clientFor(sandbox, { onResponse: (e) => events.push(e) });
    try {
      await c.accounts.balances(company());
      await advanceClock(sandbox, 31 * 60);
      const balances = await c.accounts.balances(company());
      expect(balances.balances.length).toBeGreaterThan(0);
      expect(events.some((e) => e.httpStatus === 401 && e.operation === 'accounts.balances')).toBe(true);
    } finally {
      await c.close();
    }
  });
});
