import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../helpers/core.js';
import { raw } from '../helpers/sandbox.js';

let core: TestCore;
beforeAll(async () => {
  core = await createTestCore();
});
afterAll(async () => {
  await core.close();
});
beforeEach(async () => {
  await raw(core.sandbox, 'POST', '/_sandbox/reset');
});

const dana = {
  email: 'dana.lee@example.test',
  mobile_number: '81234567',
  date_of_birth: '1992-05-17',
  first_name: 'Dana',
  last_name: 'Lee',
  line1: '1 Raffles Place',
  city: 'Singapore',
  state: 'Singapore',
  country: 'sg',
  postcode: '048616',
};

describe('family A cardholders', () => {
  it('create_cardholder_a creates a cardholder that get_cardholder_a then shows', async () => {
    const created = await core.ok('create_cardholder_a', {
      ...dana,
      middle_name: 'Mei',
      name_on_card: 'DANA LEE',
    });
    expect(created.cardholderId).toMatch(/\S/);
    const { cardholder } = await core.ok('get_cardholder_a', { cardholderId: created.cardholderId });
    expect(cardholder).toMatchObject({
      id: created.cardholderId,
      email: dana.email,
      mobile_number: '81234567',
      // country_code defaults to the address country, which the tool upper-cases.
      country_code: 'SG',
      type: 'INDIVIDUAL',
      kyc_status: 'PENDING',
      individual: {
        date_of_birth: '1992-05-17',
        name: { first_name: 'Dana', middle_name: 'Mei', last_name: 'Lee', name_on_card: 'DANA LEE' },
        address: { line1: '1 Raffles Place', city: 'Singapore', country: 'SG', postcode: '048616' },
      },
    });
  });

  it('list_cardholders_a pages the seed newest first and filters by status', async () => {
    const all = await core.ok('list_cardholders_a', { page_num: 1, page_size: 2 });
    expect(all.totalcount).toBe(3);
    expect((all.cardholders as { id: string }[]).map((c) => c.id)).toEqual([
      'cha_demo_chloe',
      'cha_demo_ben',
    ]);
    const pending = await core.ok('list_cardholders_a', { status: 'PENDING' });
    expect(pending.totalcount).toBe(1);
    expect(pending.cardholders).toMatchObject([{ id: 'cha_demo_ben', status: 'PENDING' }]);
  });

  it('get_cardholder_a finds a cardholder by email', async () => {
    const { cardholder } = await core.ok('get_cardholder_a', { email: 'ava.tan@demo.bankops.test' });
    expect(cardholder).toMatchObject({ id: 'cha_demo_ava', status: 'SUCCESS', kyc_status: 'COMPLETED' });
  });

  it('update_cardholder_a changes mobile, address and name, as get_cardholder_a shows', async () => {
    const result = await core.ok('update_cardholder_a', {
      cardholderId: 'cha_demo_chloe',
      mobile_number: '6175550199',
      country_code: 'us',
      line1: '1 Beacon Street',
      city: 'Boston',
      state: 'MA',
      country: 'US',
      postcode: '02108',
      first_name: 'Cleo',
      last_name: 'Martin',
    });
    expect(result).toMatchObject({ cardholderId: 'cha_demo_chloe', status: 'success', code: 200 });
    const { cardholder } = await core.ok('get_cardholder_a', { cardholderId: 'cha_demo_chloe' });
    expect(cardholder).toMatchObject({
      mobile_number: '6175550199',
      country_code: 'US',
      individual: {
        address: { line1: '1 Beacon Street', city: 'Boston', state: 'MA', postcode: '02108' },
        name: { first_name: 'Cleo', last_name: 'Martin' },
      },
    });
  });

  it('refuses structurally wrong input field by field, before calling the service', async () => {
    const create = await core.call('create_cardholder_a', {
      ...dana,
      date_of_birth: '17/05/1992',
      email: 'nope',
    });
    expect(create.status).toBe('invalid');
    if (create.status !== 'invalid') return;
    expect(create.errors.map((e) => e.path).sort()).toEqual(['date_of_birth', 'email']);
    expect(create.errors.find((e) => e.path === 'date_of_birth')?.message).toBe('must be a date YYYY-MM-DD');

    const both = await core.call('get_cardholder_a', { cardholderId: 'cha_demo_ava', email: 'a@b.test' });
    expect(both).toMatchObject({
      status: 'invalid',
      errors: [{ path: 'cardholderId', message: 'give exactly one of cardholderId and email' }],
    });

    const nothing = await core.call('update_cardholder_a', {
      cardholderId: 'cha_demo_ben',
      updated_by: 'ops',
    });
    expect(nothing).toMatchObject({
      status: 'invalid',
      errors: [
        {
          path: 'cardholderId',
          message: 'give at least one field to change: the mobile, the address or the name',
        },
      ],
    });

    const update = await core.call('update_cardholder_a', {
      cardholderId: 'cha_demo_ben',
      mobile_number: '7700900999',
      city: 'Leeds',
    });
    expect(update.status).toBe('invalid');
    if (update.status !== 'invalid') return;
    expect(update.errors).toContainEqual({
      path: 'country_code',
      message: 'mobile_number and country_code go together',
    });
    expect(update.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(['line1', 'state', 'country', 'postcode']),
    );
    // Nothing was sent: Ben keeps his number.
    const { cardholder } = await core.ok('get_cardholder_a', { cardholderId: 'cha_demo_ben' });
    expect(cardholder).toMatchObject({ mobile_number: '7700900123' });
  });

  it("surfaces the service's refusal as failed with its message", async () => {
    const young = new Date();
    young.setUTCFullYear(young.getUTCFullYear() - 10);
    const tooYoung = await core.call('create_cardholder_a', {
      ...dana,
      date_of_birth: young.toISOString().slice(0, 10),
    });
    expect(tooYoung.status).toBe('failed');
    if (tooYoung.status !== 'failed') return;
    expect(tooYoung.error).toMatchObject({
      kind: 'service',
      httpStatus: 400,
      operation: 'issuingA.createCardholder',
    });
    expect(tooYoung.error.message).toMatch(/18/);

    const screened = await core.call('create_cardholder_a', { ...dana, last_name: 'Sanctioned' });
    expect(screened).toMatchObject({ status: 'failed', error: { kind: 'service' } });
    if (screened.status !== 'failed') return;
    expect(screened.error.message).toMatch(/name screening/);

    const unknown = await core.call('get_cardholder_a', { cardholderId: 'cha_nobody' });
    expect(unknown).toMatchObject({ status: 'failed', error: { kind: 'service', httpStatus: 400 } });
  });
});
