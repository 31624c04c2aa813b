import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServiceClient, type ServiceClient, ServiceError } from '../../../src/core/client/index.js';
import { openSandbox, SANDBOX_DEFAULTS, type SandboxService } from '../../../src/sandbox/index.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

/**
 * The client over HTTP (undici, to a sandbox listening on loopback) and over a dispatch (the same
 * sandbox's handler in this process, as a one-shot CLI command uses it) say the same: the same
 * results, and the same errors, field for field, for a success, an unknown path, a refusal and
 * each injected fault.
 */

let overHttp: RunningSandbox;
let inProcess: SandboxService;
let clients: Record<'http' | 'dispatch', ServiceClient>;
const sides = ['http', 'dispatch'] as const;
type Side = (typeof sides)[number];

beforeAll(async () => {
  overHttp = await startTestSandbox();
  inProcess = openSandbox({ credentials: { ...SANDBOX_DEFAULTS } });
  const c = inProcess.credentials;
  clients = {
    http: clientFor(overHttp, { maxRetries: 1, timeoutMs: 300 }),
    dispatch: createServiceClient({
      baseUrl: async () => inProcess.dispatch,
      apiKey: c.apiKey,
      productId: c.productId,
      userId: c.userId,
      companyId: c.companyId,
      maxRetries: 1,
      timeoutMs: 300,
    }),
  };
});
afterAll(async () => {
  await Promise.all(sides.map((side) => clients[side].close()));
  await overHttp.close();
});
beforeEach(() => {
  overHttp.reset();
  inProcess.reset();
});

/** A fault for the next matching request, injected through each sandbox's own control path. */
async function inject(side: Side, fault: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify(fault);
  const headers = { 'content-type': 'application/json' };
  const status =
    side === 'http'
      ? (await fetch(`${overHttp.url}/_sandbox/faults`, { method: 'POST', headers, body })).status
      : (
          await inProcess.dispatch({
            method: 'POST',
            path: '/_sandbox/faults',
            headers,
            body,
            signal: new AbortController().signal,
          })
        ).status;
  expect(status).toBe(200);
}

/** What a call came to: its result, or its error's every field but the elapsed time. */
async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return { result: await call };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const { kind, code, httpStatus, serviceCode, requestId, operation, issues, message } = error;
    return {
      error: { kind, code, httpStatus, serviceCode, requestId, operation, issues, message },
      serviceMessage: error.serviceMessage,
      attempts: error.attempts,
      retryAfter: error.retryAfter,
    };
  }
}

/** The same call on both sides, with the same request id; both outcomes, for one to equal the other. */
async function onBoth(
  call: (client: ServiceClient, options: { requestId: string }) => Promise<unknown>,
  fault?: Record<string, unknown>,
): Promise<{ http: unknown; dispatch: unknown }> {
  const requestId = `req-${Math.random().toString(16).slice(2)}`;
  const [http, dispatch] = await Promise.all(
    sides.map(async (side) => {
      if (fault !== undefined) await inject(side, fault);
      return outcome(call(clients[side], { requestId }));
    }),
  );
  return { http, dispatch };
}

const companyCode = SANDBOX_DEFAULTS.companyId;

describe('the service client over HTTP and over an in-process dispatch', () => {
  it('reads the same balances and accounts', async () => {
    const balances = await onBoth((client, options) => client.accounts.balances({ companyCode }, options));
    expect(balances.dispatch).toEqual(balances.http);
    expect(balances.http).toMatchObject({ result: { balances: expect.any(Array) } });
    const accounts = await onBoth((client, options) => client.accounts.list({ companyCode }, options));
    expect(accounts.dispatch).toEqual(accounts.http);
  });

  it('says the same of a path the service does not have (404) and of an unknown account (400)', async () => {
    const missing = await onBoth((client, options) =>
      client.http.call(
        {
          operation: 'nowhere.get',
          method: 'GET',
          path: '/svc/banking/api/v1/nowhere',
          headerSet: 'HB',
          envelope: 'banking',
          response: z.unknown(),
        },
        options,
      ),
    );
    expect(missing.dispatch).toEqual(missing.http);
    expect(missing.http).toMatchObject({ error: { kind: 'service', httpStatus: 404 } });

    const unknown = await onBoth((client, options) =>
      client.accounts.get({ accountId: 'acc_nope_0000', companyCode }, options),
    );
    expect(unknown.dispatch).toEqual(unknown.http);
    expect(unknown.http).toMatchObject({ error: { kind: 'service', httpStatus: 400 } });
  });

  it('says the same of an injected 503 (tried twice), a broken body and an answer that never comes', async () => {
    const path = '/svc/banking/api/v1/accounts/balances';
    const read = (client: ServiceClient, options: { requestId: string }) =>
      client.accounts.balances({ companyCode }, options);

    const unavailable = await onBoth(read, { path, status: 503, times: 2 });
    expect(unavailable.dispatch).toEqual(unavailable.http);
    expect(unavailable.http).toMatchObject({ error: { kind: 'service', httpStatus: 503 }, attempts: 2 });

    const broken = await onBoth(read, { path, malformed: true, times: 1 });
    expect(broken.dispatch).toEqual(broken.http);
    expect(broken.http).toMatchObject({ error: { kind: 'invalid_response', httpStatus: 200 } });

    const hanging = await onBoth(read, { path, timeout: true, times: 2 });
    expect(hanging.dispatch).toEqual(hanging.http);
    expect(hanging.http).toMatchObject({ error: { kind: 'timeout' }, attempts: 2 });
  });
});
