import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentHeaders, ibCall, ibControl, SEED, validCardholder } from '../helpers/issuing-b.js';
import { headerSets, type RunningSandbox, raw, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const create = (body: unknown, headers: Record<string, string | undefined> = agentHeaders(sandbox)) =>
  ibCall(sandbox, 'POST', '/cardholder', { body, headers });

const expectRefused = (res: { status: number; body: { code: number; status: string; message: string } }) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 400, status: 'error' });
  return res.body.message;
};

describe('issuing B: create cardholder', () => {
  it('creates a cardholder (200, data [{id}]) and reads it back by x-cardholderHash-id', async () => {
    const body = validCardholder({ middleName: 'Chukwuemeka', deliveryAddress3: 'Level 5' });
    const res = await create(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    expect(res.body.data).toHaveLength(1);
    const id = res.body.data[0].id;
    expect(typeof id).toBe('string');

    const read = await ibCall(sandbox, 'GET', '/cardholder', { ids: { hash: id } });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'success', code: 200 });
    const view = read.body.data[0];
    expect(view).toMatchObject({
      ...body,
      id,
      status: 'ACTIVE',
      deliveryAddress4: null,
      kycProviderName: null,
    });
    expect(view.createAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('requires x-agent-code and x-subagent-code', async () => {
    const noAgent = await create(validCardholder(), { 'x-subagent-code': 'SUB' });
    expect(expectRefused(noAgent)).toContain('x-agent-code');
    const noSub = await create(validCardholder(), { 'x-agent-code': 'AGT' });
    expect(expectRefused(noSub)).toContain('x-subagent-code');
  });

  it('refuses a version other than v1 and missing HB2 headers', async () => {
    const v2 = await raw(sandbox, 'GET', '/issuing/api/v2/cardholder', {
      headers: { ...headerSets(sandbox).HB2(), 'x-cardholderHash-id': SEED.alice.id },
    });
    expect(expectRefused(v2)).toContain("unsupported API version 'v2'");
    const noProduct = await ibCall(sandbox, 'GET', '/cardholder', {
      ids: { hash: SEED.alice.id },
      headers: { 'x-product-id': undefined },
    });
    expect(expectRefused(noProduct)).toContain('x-product-id');
    const noHash = await ibCall(sandbox, 'GET', '/cardholder');
    expect(expectRefused(noHash)).toContain('x-cardholderHash-id');
  });

  it('refuses an unknown cardholder id, naming the header', async () => {
    const res = await ibCall(sandbox, 'GET', '/cardholder', { ids: { hash: 'chb_nobody' } });
    expect(expectRefused(res)).toBe("x-cardholderHash-id: cardholder 'chb_nobody' not found");
  });

  const fieldRules: [string, Record<string, unknown>, string][] = [
    ['title enum', { title: 'Dr' }, 'title: must be one of Mr, Mrs, Miss'],
    ['title required', { title: undefined }, 'title: is required'],
    ['firstName length', { firstName: 'A'.repeat(15) }, 'firstName: must be at most 14 characters'],
    ['middleName length', { middleName: 'M'.repeat(36) }, 'middleName: must be at most 35 characters'],
    ['lastName length', { lastName: 'L'.repeat(12) }, 'lastName: must be at most 11 characters'],
    [
      'preferredName length',
      { preferredName: 'P'.repeat(27) },
      'preferredName: must be at most 26 characters',
    ],
    ['gender enum', { gender: 'X' }, 'gender: must be one of M, F, O'],
    [
      'dateOfBirth format',
      { dateOfBirth: '12/04/1990' },
      'dateOfBirth: must be a real date in the form YYYY-MM-DD',
    ],
    ['dateOfBirth real day', { dateOfBirth: '1991-02-29' }, 'dateOfBirth: must be a real date'],
    ['mobileCountryName ISO', { mobileCountryName: 'SGP' }, 'mobileCountryName: must be a 2-letter ISO 3166'],
    ['mobileCountryCode plus', { mobileCountryCode: '+65' }, 'mobileCountryCode: must contain digits only'],
    ['mobile too short', { mobile: '1234567' }, 'mobile: must be 8 to 12 digits'],
    ['mobile too long', { mobile: '1234567890123' }, 'mobile: must be 8 to 12 digits'],
    ['mobile non-digits', { mobile: '8123-4567' }, 'mobile: must be 8 to 12 digits'],
    ['nationality ISO', { nationality: 'XX' }, 'nationality: must be a 2-letter ISO 3166'],
    ['email', { email: 'not-an-email' }, 'email: must be an e-mail address'],
    ['email required', { email: undefined }, 'email: is required'],
    ['deliveryAddress1 length', { deliveryAddress1: 'A'.repeat(36) }, 'deliveryAddress1: must be at most 35'],
    [
      'deliveryAddress2 charset',
      { deliveryAddress2: 'Unit 5; Main St' },
      'deliveryAddress2: may contain only',
    ],
    [
      'deliveryAddress3 leading space',
      { deliveryAddress3: ' Level 5' },
      'deliveryAddress3: must not start or end',
    ],
    [
      'deliveryAddress4 trailing space',
      { deliveryAddress4: 'Level 5 ' },
      'deliveryAddress4: must not start or end',
    ],
    ['deliveryAddress1 required', { deliveryAddress1: undefined }, 'deliveryAddress1: is required'],
    ['deliveryCity required', { deliveryCity: undefined }, 'deliveryCity: is required'],
    [
      'deliveryState length',
      { deliveryState: 'S'.repeat(21) },
      'deliveryState: must be at most 20 characters',
    ],
    ['deliveryCountry ISO', { deliveryCountry: 'sg' }, 'deliveryCountry: must be a 2-letter ISO 3166'],
    ['deliveryZipCode required', { deliveryZipCode: undefined }, 'deliveryZipCode: is required'],
    ['billingAddress1 charset', { billingAddress1: 'Flat 3 & 4' }, 'billingAddress1: may contain only'],
    ['billingAddress2 required', { billingAddress2: undefined }, 'billingAddress2: is required'],
    ['billingAddress3 length', { billingAddress3: 'B'.repeat(36) }, 'billingAddress3: must be at most 35'],
    ['billingCity required', { billingCity: undefined }, 'billingCity: is required'],
    ['billingState length', { billingState: 'S'.repeat(21) }, 'billingState: must be at most 20 characters'],
    ['billingCountry ISO', { billingCountry: 'ZZ' }, 'billingCountry: must be a 2-letter ISO 3166'],
    ['billingZipCode required', { billingZipCode: undefined }, 'billingZipCode: is required'],
    [
      'kycProviderName enum',
      { kycProviderName: 'ONFIDO', kycReferenceId: 'r1' },
      'kycProviderName: must be one of',
    ],
    ['firstName type', { firstName: 42 }, 'firstName: must be a string'],
  ];

  it.each(fieldRules)('refuses %s, naming the field and the rule', async (_name, override, expected) => {
    const res = await create(validCardholder(override));
    expect(expectRefused(res)).toContain(expected);
  });

  it('accepts the boundary values of every length rule', async () => {
    const res = await create(
      validCardholder({
        firstName: 'F'.repeat(14),
        middleName: 'M'.repeat(35),
        lastName: 'L'.repeat(11),
        preferredName: 'P'.repeat(26),
        mobile: '123456789012',
        deliveryAddress1: 'A'.repeat(35),
        deliveryState: 'S'.repeat(20),
        billingAddress4: '_@#/,.-() ok',
        gender: 'O',
        title: 'Miss',
      }),
    );
    expect(res.status).toBe(200);
  });

  it('refuses kycReferenceId without kycProviderName, and a provider without reference', async () => {
    const refOnly = await create(validCardholder({ kycReferenceId: 'ref-1' }));
    expect(expectRefused(refOnly)).toBe('kycReferenceId: must not be sent without kycProviderName');
    const providerOnly = await create(validCardholder({ kycProviderName: 'JUMIO' }));
    expect(expectRefused(providerOnly)).toBe('kycReferenceId: is required when kycProviderName is given');
    const both = await create(validCardholder({ kycProviderName: 'DIDIT', kycReferenceId: 'didit-9' }));
    expect(both.status).toBe(200);
  });

  it('accepts an email another cardholder has (the spec states no uniqueness)', async () => {
    const res = await create(validCardholder({ email: SEED.alice.email.toUpperCase() }));
    expect(res.status).toBe(200);
    expect(res.body.data[0].id).toEqual(expect.any(String));
  });

  it('replays a repeated x-request-id without creating a second cardholder', async () => {
    const headers = { ...headerSets(sandbox).HB2(), ...agentHeaders(sandbox) };
    const body = validCardholder();
    const first = await raw(sandbox, 'POST', '/issuing/api/v1/cardholder', { headers, body });
    const again = await raw(sandbox, 'POST', '/issuing/api/v1/cardholder', { headers, body });
    expect(again.body).toEqual(first.body);
    const other = await raw(sandbox, 'POST', '/issuing/api/v1/cardholder', {
      headers,
      body: { ...body, firstName: 'Other' },
    });
    expect(expectRefused(other)).toContain('already used');
  });
});

describe('issuing B: update cardholder', () => {
  it('updates any subset (200, data [message]) and shows the change', async () => {
    const res = await ibCall(sandbox, 'PATCH', '/cardholder', {
      ids: { hash: SEED.alice.id },
      body: { mobile: '98765432', deliveryAddress3: 'Unit 7-B, Block 9' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', code: 200 });
    expect(res.body.data).toHaveLength(1);
    expect(typeof res.body.data[0]).toBe('string');
    const read = await ibCall(sandbox, 'GET', '/cardholder', { ids: { hash: SEED.alice.id } });
    expect(read.body.data[0]).toMatchObject({
      mobile: '98765432',
      deliveryAddress3: 'Unit 7-B, Block 9',
      firstName: 'Alice',
    });
  });

  it('refuses parentheses in address lines on update though create accepts them', async () => {
    const created = await create(validCardholder({ deliveryAddress1: 'Blk 9 (Rear)' }));
    expect(created.status).toBe(200);
    const res = await ibCall(sandbox, 'PATCH', '/cardholder', {
      ids: { hash: created.body.data[0].id },
      body: { deliveryAddress1: 'Blk 9 (Front)' },
    });
    expect(expectRefused(res)).toContain(
      'deliveryAddress1: may contain only letters, digits, spaces and _ @ # / , . -',
    );
    expect(res.body.message).toContain('parentheses are not allowed on update');
  });

  it('applies the create rules to updated fields and refuses an empty update', async () => {
    const long = await ibCall(sandbox, 'PATCH', '/cardholder', {
      ids: { hash: SEED.alice.id },
      body: { lastName: 'L'.repeat(12), gender: 'Q' },
    });
    const message = expectRefused(long);
    expect(message).toContain('lastName: must be at most 11 characters');
    expect(message).toContain('gender: must be one of M, F, O');
    const empty = await ibCall(sandbox, 'PATCH', '/cardholder', { ids: { hash: SEED.alice.id }, body: {} });
    expect(expectRefused(empty)).toContain('at least one cardholder field');
  });

  it('refuses kycReferenceId on update when the cardholder has no provider', async () => {
    const res = await ibCall(sandbox, 'PATCH', '/cardholder', {
      ids: { hash: SEED.bruno.id },
      body: { kycReferenceId: 'ref-2' },
    });
    expect(expectRefused(res)).toBe('kycReferenceId: must not be sent without kycProviderName');
    const withProvider = await ibCall(sandbox, 'PATCH', '/cardholder', {
      ids: { hash: SEED.alice.id },
      body: { kycReferenceId: 'sumsub-new-ref' },
    });
    expect(withProvider.status).toBe(200);
  });
});

describe('issuing B: cardholder deactivation and activation', () => {
  it('refuses wallet and card operations of a deactivated cardholder until it is activated', async () => {
    const ids = { holder: SEED.alice.id, wallet: SEED.alice.wallet, card: SEED.alice.virtual };
    const off = await ibControl(sandbox, `/cardholders/${SEED.alice.id}/deactivate`);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ cardholderId: SEED.alice.id, cardholderStatus: 'INACTIVE' });

    const read = await ibCall(sandbox, 'GET', '/cardholder', { ids: { hash: SEED.alice.id } });
    expect(read.body.data[0].status).toBe('INACTIVE');
    const refused = [
      await ibCall(sandbox, 'GET', '/wallet', { ids }),
      await ibCall(sandbox, 'GET', '/card/details', { ids }),
      await ibCall(sandbox, 'PATCH', '/card/configuration', {
        ids,
        body: { card_present_transaction_enabled: false },
      }),
      await ibCall(sandbox, 'POST', '/card', { ids, body: { card_type: 'virtual' } }),
    ];
    for (const res of refused) expect(expectRefused(res)).toContain('cardholder is deactivated');
    const toHer = await ibCall(sandbox, 'POST', '/wallet/transfer', {
      ids: { holder: SEED.bruno.id },
      body: { email: SEED.alice.email, amount: 1, description: 'x' },
    });
    expect(expectRefused(toHer)).toContain('receiving cardholder is deactivated');

    const on = await ibCall(sandbox, 'POST', '/cardholder/activate', { ids: { hash: SEED.alice.id } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ status: 'success', code: 200, data: [{ status: 'ACTIVE' }] });
    const wallets = await ibCall(sandbox, 'GET', '/wallet', { ids });
    expect(wallets.status).toBe(200);
  });

  it('activating an active cardholder is a no-op answering ACTIVE; activates the seeded deactivated one', async () => {
    const active = await ibCall(sandbox, 'POST', '/cardholder/activate', { ids: { hash: SEED.alice.id } });
    expect(active.status, JSON.stringify(active.body)).toBe(200);
    expect(active.body).toMatchObject({ status: 'success', code: 200, data: [{ status: 'ACTIVE' }] });
    expect(
      (await ibCall(sandbox, 'GET', '/cardholder', { ids: { hash: SEED.alice.id } })).body.data[0].status,
    ).toBe('ACTIVE');
    const chloe = await ibCall(sandbox, 'POST', '/cardholder/activate', { ids: { hash: SEED.chloe.id } });
    expect(chloe.status).toBe(200);
    expect(chloe.body.data).toEqual([{ status: 'ACTIVE' }]);
    const again = await ibControl(sandbox, '/cardholders/chb_nobody/deactivate');
    expect(again.status).toBe(400);
  });

  it('takes the cardholder id from x-cardholderHash-id or x-cardholder-id', async () => {
    const byPlain = await ibCall(sandbox, 'POST', '/cardholder/activate', { ids: { holder: SEED.chloe.id } });
    expect(byPlain.status, JSON.stringify(byPlain.body)).toBe(200);
    expect(byPlain.body.data).toEqual([{ status: 'ACTIVE' }]);
    const wallets = await ibCall(sandbox, 'GET', '/wallet', { ids: { holder: SEED.chloe.id } });
    expect(wallets.status).toBe(200);

    const both = await ibCall(sandbox, 'POST', '/cardholder/activate', {
      ids: { hash: SEED.chloe.id, holder: SEED.chloe.id },
    });
    expect(both.status).toBe(200);
    const differ = await ibCall(sandbox, 'POST', '/cardholder/activate', {
      ids: { hash: SEED.chloe.id, holder: SEED.alice.id },
    });
    expect(expectRefused(differ)).toContain('name different cardholders');
    const unknown = await ibCall(sandbox, 'POST', '/cardholder/activate', { ids: { holder: 'chb_nobody' } });
    expect(expectRefused(unknown)).toContain("x-cardholder-id: cardholder 'chb_nobody' not found");
  });

  it('refuses an activation naming no cardholder, naming both headers', async () => {
    const none = await ibCall(sandbox, 'POST', '/cardholder/activate');
    const message = expectRefused(none);
    expect(message).toContain('x-cardholderHash-id');
    expect(message).toContain('x-cardholder-id');
  });
});
