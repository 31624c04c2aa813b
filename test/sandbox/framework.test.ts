import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceClock,
  headerSets,
  type RunningSandbox,
  raw,
  startTestSandbox,
  tokenFor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('sandbox framework', () => {
  it('issues a 30-minute bearer token on the token endpoint', async () => {
    const c = sandbox.credentials;
    const res = await raw(sandbox, 'POST', '/svc/api/v1/auth/token', {
      headers: {
        'content-type': 'application/json',
        'x-api-key': c.apiKey,
        'x-company-id': c.companyId,
        'x-user-id': c.userId,
        'x-request-id': randomUUID(),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 200,
      status: 'SUCCESS',
      data: { tokenType: 'Bearer', expiresIn: 1800 },
    });
    expect(res.body.data.userId).toBe(c.userId);
    expect(res.body.data.companyCode).toBe(c.companyId);
  });

  it('refuses the token endpoint without x-company-id, naming the header', async () => {
    const c = sandbox.credentials;
    const res = await raw(sandbox, 'POST', '/svc/api/v1/auth/token', {
      headers: { 'x-api-key': c.apiKey, 'x-user-id': c.userId, 'x-request-id': randomUUID() },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 400 });
    expect(res.body.message).toContain('x-company-id');
  });

  it('refuses a wrong x-api-key with 401', async () => {
    const res = await raw(sandbox, 'GET', '/svc/banking/api/v1/users?email=x@y.z', {
      headers: { ...headerSets(sandbox).USERS(), 'x-api-key': 'wrong' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 'error', code: 401, message: 'invalid x-api-key' });
  });

  it('looks a user up by email without a bearer token', async () => {
    const email = sandbox.credentials.userEmail;
    const res = await raw(sandbox, 'GET', `/svc/banking/api/v1/users?email=${encodeURIComponent(email)}`, {
      headers: headerSets(sandbox).USERS(),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ email, userId: sandbox.credentials.userId, status: 'ACTIVE' });
  });

  it('expires tokens after 30 minutes of sandbox time', async () => {
    const token = await tokenFor(sandbox);
    await advanceClock(sandbox, 1801);
    const res = await raw(sandbox, 'GET', '/svc/banking/api/v1/accounts?companyCode=CMP-DEMO', {
      headers: headerSets(sandbox).HB(token),
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/);
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    expect((await raw(sandbox, 'GET', '/svc/banking/api/v1/nothing')).status).toBe(404);
    const res = await raw(sandbox, 'GET', '/svc/api/v1/auth/token');
    expect(res.status).toBe(405);
    expect(res.body.message).toContain('POST');
  });

  it('injects failures and latency per path, and clears them', async () => {
    const path = '/svc/banking/api/v1/users';
    const add = await raw(sandbox, 'POST', '/_sandbox/faults', {
      headers: { 'content-type': 'application/json' },
      body: { path, status: 503, times: 1 },
    });
    expect(add.status).toBe(200);
    const email = encodeURIComponent(sandbox.credentials.userEmail);
    const failed = await raw(sandbox, 'GET', `${path}?email=${email}`, {
      headers: headerSets(sandbox).USERS(),
    });
    expect(failed.status).toBe(503);
    const ok = await raw(sandbox, 'GET', `${path}?email=${email}`, { headers: headerSets(sandbox).USERS() });
    expect(ok.status).toBe(200);

    await raw(sandbox, 'POST', '/_sandbox/faults', {
      headers: { 'content-type': 'application/json' },
      body: { path: '/svc/banking/*', malformed: true },
    });
    const malformed = await raw(sandbox, 'GET', `${path}?email=${email}`, {
      headers: headerSets(sandbox).USERS(),
    });
    expect(typeof malformed.body).toBe('string');
    await raw(sandbox, 'DELETE', '/_sandbox/faults');
    const again = await raw(sandbox, 'GET', `${path}?email=${email}`, {
      headers: headerSets(sandbox).USERS(),
    });
    expect(again.status).toBe(200);
  });

  it('refuses a body that is not JSON, or sent without a JSON Content-Type', async () => {
    const res = await raw(sandbox, 'POST', '/_sandbox/clock', {
      headers: { 'content-type': 'application/json' },
      rawBody: '{nope',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('not valid JSON');
    const noType = await raw(sandbox, 'POST', '/_sandbox/clock', {
      headers: { 'content-type': 'text/plain' },
      rawBody: '{"advanceSeconds":1}',
    });
    expect(noType.body.message).toContain('Content-Type');
  });
});

describe('routing', () => {
  it('answers 405 for a literal path with the wrong method rather than treating it as an id', async () => {
    const token = await tokenFor(sandbox);
    const res = await raw(sandbox, 'GET', '/svc/banking/api/v1/conversions/quote', {
      headers: headerSets(sandbox).HB(token),
    });
    expect(res.status).toBe(405);
    expect(res.body.message).toContain('allowed: POST');
  });
});
