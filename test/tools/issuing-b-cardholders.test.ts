import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { ibControl, SEED, validCardholder } from '../helpers/issuing-b.js';

// Cardholder and KYC tools of issuing family B, through the executor against the sandbox.

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(() => core.close());
beforeEach(() => core.sandbox.reset());

interface Cardholder {
  id: string;
  email: string;
  firstName: string;
  mobile: string;
  deliveryAddress1: string;
  status: string;
}
const getCardholder = async (cardholderId: string): Promise<Cardholder> =>
  (await core.ok('get_cardholder_b', { cardholderId })).cardholder as Cardholder;

describe('cardholder tools (family B)', () => {
  it('get_cardholder_b shows a seeded cardholder', async () => {
    const alice = await getCardholder(SEED.alice.id);
    expect(alice).toMatchObject({
      id: SEED.alice.id,
      email: SEED.alice.email,
      firstName: 'Alice',
      status: 'ACTIVE',
    });
  });

  it('create_cardholder_b creates a cardholder, filling the agent codes from configuration', async () => {
    // No agentCode/subagentCode given: the service requires both headers, so success shows the defaults went in.
    const body = validCardholder();
    const out = await core.ok('create_cardholder_b', body);
    expect(out.cardholderId).toEqual(expect.any(String));
    const created = await getCardholder(out.cardholderId as string);
    expect(created).toMatchObject({
      id: out.cardholderId,
      email: body.email,
      firstName: body.firstName,
      deliveryAddress1: body.deliveryAddress1,
      status: 'ACTIVE',
    });
  });

  it('update_cardholder_b changes only the given fields', async () => {
    const out = await core.ok('update_cardholder_b', { cardholderId: SEED.alice.id, mobile: '91234567' });
    expect(out.message).toMatch(/updated/i);
    const alice = await getCardholder(SEED.alice.id);
    expect(alice.mobile).toBe('91234567');
    expect(alice.email).toBe(SEED.alice.email);
  });

  it('activate_cardholder_b reactivates a deactivated cardholder; a second time is a no-op', async () => {
    expect((await getCardholder(SEED.chloe.id)).status).toBe('INACTIVE');
    expect(await core.ok('activate_cardholder_b', { cardholderId: SEED.chloe.id })).toEqual({
      status: 'ACTIVE',
    });
    expect((await getCardholder(SEED.chloe.id)).status).toBe('ACTIVE');

    expect(await core.ok('activate_cardholder_b', { cardholderId: SEED.chloe.id })).toEqual({
      status: 'ACTIVE',
    });
    expect((await getCardholder(SEED.chloe.id)).status).toBe('ACTIVE');
  });

  it('activate_cardholder_b on an unknown cardholder is failed with the service message', async () => {
    const result = await core.call('activate_cardholder_b', { cardholderId: 'chb_nobody' });
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.error).toMatchObject({ kind: 'service', operation: 'issuingB.activateCardholder' });
    expect(result.error.message).toMatch(/chb_nobody|x-cardholderHash-id/);
  });

  it('refuses a wrong enum or a missing field before calling the service, naming the field', async () => {
    const before = core.sandbox.stats()['issuingB.createCardholder'] ?? 0;
    const result = await core.call('create_cardholder_b', validCardholder({ title: 'Dr', email: undefined }));
    expect(result.status).toBe('invalid');
    if (result.status !== 'invalid') return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(['email', 'title']);
    expect(result.message).toMatch(/title/);
    expect(core.sandbox.stats()['issuingB.createCardholder'] ?? 0).toBe(before);

    const noId = await core.call('get_cardholder_b', {});
    expect(noId.status).toBe('invalid');
    if (noId.status === 'invalid') expect(noId.errors[0]?.path).toBe('cardholderId');
  });

  it("surfaces the service's refusal of a business rule with its message", async () => {
    const result = await core.call('create_cardholder_b', validCardholder({ lastName: 'Abcdefghijkl' }));
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.error.kind).toBe('service');
    expect(result.error.message).toMatch(/lastName: must be at most 11 characters/);
  });

  it('update_cardholder_b with no field is refused before anything is sent', async () => {
    const result = await core.call('update_cardholder_b', { cardholderId: SEED.alice.id });
    expect(result).toMatchObject({
      status: 'invalid',
      errors: [{ path: 'cardholderId', message: 'give at least one field to change besides cardholderId' }],
    });
  });
});

describe('KYC tools (family B)', () => {
  it('get_kyc_b shows completed and pending KYC', async () => {
    const alice = (await core.ok('get_kyc_b', { cardholderId: SEED.alice.id })).kyc;
    expect(alice).toMatchObject({ kycStatus: 'COMPLETED', complianceStatus: 'COMPLETED', kycLink: '' });
    const bruno = (await core.ok('get_kyc_b', { cardholderId: SEED.bruno.id })).kyc;
    expect(bruno).toMatchObject({
      kycStatus: 'PENDING',
      complianceStatus: 'IN_PROGRESS',
      email: SEED.bruno.email,
    });
    expect((bruno as { kycLink: string }).kycLink).toMatch(/^https?:\/\//);
  });

  it('get_rfi_b shows the open RFI, and open=false when there is none', async () => {
    expect(await core.ok('get_rfi_b', { cardholderId: SEED.bruno.id })).toEqual({
      open: true,
      rfi: {
        services_declined_codes: { address: ['ADDRESS_PROOF_EXPIRED'], document: ['DOCUMENT_IMAGE_BLURRED'] },
        declined_reason: expect.any(String),
      },
    });
    expect(await core.ok('get_rfi_b', { cardholderId: SEED.alice.id })).toEqual({ open: false, rfi: null });
  });

  it('respond_rfi_b returns a submission link, also without an open RFI (which it does not open)', async () => {
    const out = await core.ok('respond_rfi_b', { cardholderId: SEED.bruno.id });
    expect(out.kyc).toMatchObject({ kycStatus: 'PENDING', kycLink: expect.stringMatching(/^https?:\/\//) });

    const none = await core.ok('respond_rfi_b', { cardholderId: SEED.alice.id });
    expect(none.kyc).toMatchObject({
      kycStatus: 'COMPLETED',
      kycLink: expect.stringMatching(/^https?:\/\//),
    });
    expect(await core.ok('get_rfi_b', { cardholderId: SEED.alice.id })).toEqual({ open: false, rfi: null });

    const unknown = await core.call('respond_rfi_b', { cardholderId: 'chb_nobody' });
    expect(unknown).toMatchObject({
      status: 'failed',
      error: { kind: 'service', operation: 'issuingB.respondRfi' },
    });
  });

  it('get_kyc_b follows a KYC completed at the service', async () => {
    const done = await ibControl(core.sandbox, `/kyc/${SEED.bruno.id}/complete`);
    expect(done.status).toBe(200);
    expect((await core.ok('get_kyc_b', { cardholderId: SEED.bruno.id })).kyc).toMatchObject({
      kycStatus: 'COMPLETED',
    });
    expect(await core.ok('get_rfi_b', { cardholderId: SEED.bruno.id })).toEqual({ open: false, rfi: null });
  });
});
