import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerSets, type RunningSandbox, raw, startTestSandbox, tokenFor } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const setRates = (rates: unknown) =>
  raw(sandbox, 'POST', '/_sandbox/banking/rates', {
    headers: { 'content-type': 'application/json' },
    body: { rates },
  });

async function eurPerUsd(): Promise<number> {
  const res = await raw(sandbox, 'POST', '/svc/banking/api/v1/conversions/quote', {
    headers: headerSets(sandbox).HB(await tokenFor(sandbox)),
    body: {
      companyCode: sandbox.credentials.companyId,
      direction: 'FX_CONVERT',
      sourceAssetCode: 'USD',
      targetAssetCode: 'EUR',
      amount: 100,
      side: 'SOURCE',
    },
  });
  return res.body.data.rate as number;
}

describe('sandbox control: FX rates', () => {
  it('moves a mid-market rate for new quotes, and a reset restores the seed', async () => {
    const seeded = await eurPerUsd();
    const res = await setRates({ EUR: 1.2 });
    expect(res.status).toBe(200);
    expect(res.body.usdPerUnit.EUR).toBe(1.2);
    expect(await eurPerUsd()).toBeCloseTo((1 / 1.2) * (1 - 0.003), 6);
    sandbox.reset();
    expect(await eurPerUsd()).toBe(seeded);
  });

  it('refuses unknown currencies, non-positive rates and a USD rate other than 1', async () => {
    expect((await setRates({ XYZ: 1 })).body.message).toContain('XYZ');
    expect((await setRates({ EUR: 0 })).body.message).toContain('positive');
    expect((await setRates({ USD: 2 })).body.message).toContain('USD is the unit');
  });
});
