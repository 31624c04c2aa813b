import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

// Many times the client's 16 connections: the calls queue, and come back (refused) in many waves.
const CALLS = 200;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const tokenRequests = (): number => sandbox.stats()['auth.issueToken'] ?? 0;
const company = () => ({ companyCode: sandbox.credentials.companyId });

describe('bearer token cache', () => {
  it('reuses one token for many calls', async () => {
    const client = clientFor(sandbox);
    try {
      const before = tokenRequests();
      await client.accounts.balances(company());
      await Promise.all(Array.from({ length: 50 }, () => client.accounts.balances(company())));
      expect(tokenRequests() - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  it(`asks once for a new token when ${CALLS} concurrent calls find it past its refresh time`, async () => {
    let now = Date.now();
    const client = clientFor(sandbox, { now: () => now });
    try {
      const first = tokenRequests();
      await client.accounts.balances(company());
      expect(tokenRequests() - first).toBe(1);

      // The client's own clock passes the refresh point; the service would still accept the token.
      now += 30 * 60 * 1000;
      const before = tokenRequests();
      const before401 = sandbox.stats()['accounts.balances'] ?? 0;
      const results = await Promise.all(
        Array.from({ length: CALLS }, () => client.accounts.balances(company())),
      );
      expect(results).toHaveLength(CALLS);
      for (const r of results) expect(r.userId).toBe(sandbox.credentials.userId);
      expect(tokenRequests() - before).toBe(1);
      // No call went out with the old token and came back refused.
      expect((sandbox.stats()['accounts.balances'] ?? 0) - before401).toBe(CALLS);
    } finally {
      await client.close();
    }
  });

  it(`asks once for a new token when the service refuses the cached one for ${CALLS} concurrent calls`, async () => {
    const client = clientFor(sandbox);
    try {
      await client.accounts.balances(company());
      // The service's clock moves past the token's 30 minutes; the client still believes in it.
      await advanceClock(sandbox, 31 * 60);
      const before = tokenRequests();
      const results = await Promise.all(
        Array.from({ length: CALLS }, () => client.accounts.balances(company())),
      );
      expect(results).toHaveLength(CALLS);
      for (const r of results) expect(r.userId).toBe(sandbox.credentials.userId);
      expect(tokenRequests() - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('retries a 401 once with a fresh token, then gives up', async () => {
    // The token endpoint does not check x-product-id; the banking endpoints refuse it with 401.
    const client = clientFor(sandbox, { productId: 'unknown-product' });
    try {
      const tokensBefore = tokenRequests();
      const callsBefore = sandbox.stats()['accounts.balances'] ?? 0;
      const error = await client.accounts.balances(company()).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'service', httpStatus: 401, operation: 'accounts.balances' });
      expect(tokenRequests() - tokensBefore).toBe(2);
      expect((sandbox.stats()['accounts.balances'] ?? 0) - callsBefore).toBe(2);
    } finally {
      await client.close();
    }
  });
});
