import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, raw, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** Every family B path and method, with the operation name the project uses for it. */
const OPERATIONS: [string, string, string][] = [
  ['issuingB.createCardholder', 'POST', '/cardholder'],
  ['issuingB.getCardholder', 'GET', '/cardholder'],
  ['issuingB.updateCardholder', 'PATCH', '/cardholder'],
  ['issuingB.activateCardholder', 'POST', '/cardholder/activate'],
  ['issuingB.createWallet', 'POST', '/wallet'],
  ['issuingB.listWallets', 'GET', '/wallet'],
  ['issuingB.walletHistory', 'GET', '/wallet/history'],
  ['issuingB.transfer', 'POST', '/wallet/transfer'],
  ['issuingB.createCard', 'POST', '/card'],
  ['issuingB.assignCard', 'POST', '/card/assign'],
  ['issuingB.listCards', 'GET', '/card/list'],
  ['issuingB.activateCard', 'POST', '/card/activate'],
  ['issuingB.getCardDetails', 'GET', '/card/details'],
  ['issuingB.getCardToken', 'GET', '/card/token'],
  ['issuingB.getCardConfiguration', 'GET', '/card/configuration'],
  ['issuingB.updateCardConfiguration', 'PATCH', '/card/configuration'],
  ['issuingB.updateCardStatus', 'PATCH', '/card/status/update'],
  ['issuingB.getSetPinUrl', 'GET', '/card/setpin'],
  ['issuingB.getResetPinUrl', 'GET', '/card/resetpin'],
  ['issuingB.getChangePinUrl', 'GET', '/card/changepin'],
  ['issuingB.enroll3ds', 'POST', '/card/3DS'],
  ['issuingB.get3ds', 'GET', '/card/3DS'],
  ['issuingB.update3ds', 'PATCH', '/card/3DS'],
  ['issuingB.unenroll3ds', 'DELETE', '/card/3DS'],
  ['issuingB.getSpendLimits', 'GET', '/card/limit'],
  ['issuingB.updateSpendLimit', 'PATCH', '/card/limit'],
  ['issuingB.getKyc', 'GET', '/kyc'],
  ['issuingB.getRfi', 'GET', '/kyc/rfi'],
  ['issuingB.respondRfi', 'GET', '/kyc/rfi/respond'],
];

describe('issuing B: routing', () => {
  it('serves all 29 operations under /issuing/api/v1 with the agreed operation names', async () => {
    expect(OPERATIONS).toHaveLength(29);
    for (const [, method, path] of OPERATIONS) {
      // Without credentials every route answers 400 in the issuing envelope, proving it exists.
      const res = await raw(sandbox, method, `/issuing/api/v1${path}`);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body).toMatchObject({ code: 400, status: 'error' });
      expect(res.body.message).toContain('missing required header');
    }
    const stats = sandbox.stats();
    for (const [operation] of OPERATIONS) expect(stats[operation], operation).toBe(1);
  });

  it('refuses any version but v1 on every family B path', async () => {
    const res = await raw(sandbox, 'GET', '/issuing/api/v3/card/list');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("unsupported API version 'v3'");
  });
});
