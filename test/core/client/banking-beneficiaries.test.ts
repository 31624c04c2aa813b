import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/core/client/index.js';
import { ServiceError } from '../../../src/core/client/index.js';
import type { CreateBeneficiaryInput } from '../../../src/core/client/schemas/beneficiaries.js';
import { rejectionOf } from '../../helpers/client-http.js';
import { clientFor, type RunningSandbox, startTestSandbox } from '../../helpers/sandbox.js';

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

const count = (operation: string): number => sandbox.stats()[operation] ?? 0;

/** A complete USD / LOCAL / ACH individual, as the spec's sample corridor demands. */
function achIndividual(overrides: Partial<CreateBeneficiaryInput> = {}): CreateBeneficiaryInput {
  return {
    companyCode: sandbox.credentials.companyId,
    entityType: 'INDIVIDUAL',
    displayName: 'John Roe',
    firstName: 'John',
    lastName: 'Roe',
    currency: 'USD',
    address: {
      country: 'US',
      city: 'Austin',
      streetAddress: '500 Congress Ave',
      postalCode: '78701',
      state: 'TX',
    },
    bank: {
      bankCountry: 'US',
      accountCurrency: 'USD',
      accountHolder: 'John Roe',
      accountNumber: '000123456789',
      routingCodeType: 'ach',
      routingCodeValue: '111000025',
      swiftCode: 'BOFAUS3N',
      bankName: 'Bank of America',
      bankAddress: '100 N Tryon St, Charlotte, NC',
      extras: { clearingSystem: 'ACH' },
    },
    extras: { paymentMethod: 'LOCAL' },
    ...overrides,
  };
}

async function invalidRequest(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ServiceError);
  expect(error).toMatchObject({ kind: 'invalid_request' });
  return error as ServiceError;
}

describe('beneficiary corridors', () => {
  it('lists the corridor options, optionally for one currency', async () => {
    const all = await client.beneficiaries.options();
    expect(all).toHaveLength(8);
    expect(all).toContainEqual(
      expect.objectContaining({
        currency: 'USD',
        country: 'US',
        entityType: 'INDIVIDUAL',
        paymentMethod: 'LOCAL',
      }),
    );
    const eur = await client.beneficiaries.options({ currency: 'EUR' });
    expect(eur.map((o) => [o.country, o.entityType, o.paymentMethod])).toEqual([
      ['DE', 'INDIVIDUAL', 'SWIFT'],
      ['DE', 'COMPANY', 'SWIFT'],
    ]);
  });

  it("reads the sample corridor's schema, then the rail-specific one", async () => {
    const query = {
      currency: 'USD',
      entityType: 'INDIVIDUAL',
      paymentMethod: 'LOCAL',
      country: 'US',
    } as const;
    const general = await client.beneficiaries.schema(query);
    expect(general.type).toBe('object');
    expect(general.required).toEqual(
      expect.arrayContaining([
        'companyCode',
        'entityType',
        'currency',
        'firstName',
        'lastName',
        'bank',
        'extras',
      ]),
    );
    const bank = general.properties?.bank as {
      properties: { extras: { properties: { clearingSystem: unknown } } };
    };
    expect(bank.properties.extras.properties.clearingSystem).toMatchObject({
      enum: ['ACH', 'FEDWIRE', 'LOCAL'],
    });

    const ach = await client.beneficiaries.schema({ ...query, clearingSystem: 'ACH' });
    const achBank = ach.properties?.bank as { properties: { routingCodeType: unknown }; required: string[] };
    expect(achBank.properties.routingCodeType).toMatchObject({ const: 'ach' });
    expect(achBank.required).toContain('routingCodeValue');
  });

  it('surfaces a corridor the service does not offer as a refusal of the schema request', async () => {
    const error = await rejectionOf(
      client.beneficiaries.create(
        achIndividual({ currency: 'GBP', bank: { bankCountry: 'GB', accountNumber: '12345678' } }),
      ),
    );
    expect(error).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'beneficiaries.schema' });
  });
});

describe('beneficiary creation', () => {
  it('registers a valid beneficiary that a payout can then be quoted to', async () => {
    const created = await client.beneficiaries.create(achIndividual());
    expect(created.beneficiary_id).toMatch(/^ben_/);
    const quote = await client.payouts.quote({
      companyCode: sandbox.credentials.companyId,
      beneficiaryId: created.beneficiary_id,
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      amount: 50,
      side: 'SOURCE',
    });
    expect(quote.destinationAssetCode).toBe('USD');
  });

  it('drops empty optional fields instead of sending them', async () => {
    // The service refuses empty strings; these reach it only if the client strips them.
    const base = achIndividual();
    const created = await client.beneficiaries.create({
      ...base,
      email: '',
      country: '   ',
      bank: { ...base.bank, iban: '', routingCodeType2: '' },
      address: { ...base.address, nationality: '' },
    });
    expect(created.beneficiary_id).toMatch(/^ben_/);
  });

  it('refuses a body that breaks the corridor schema, naming every field, without sending it', async () => {
    const before = count('beneficiaries.create');
    const base = achIndividual();
    const error = await invalidRequest(
      client.beneficiaries.create({
        ...base,
        bank: { ...base.bank, routingCodeType: 'aba', routingCodeValue: '' },
        address: { country: 'US' },
      }),
    );
    expect(error.operation).toBe('beneficiaries.create');
    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/bank/routingCodeType: must be equal to constant'),
        '/bank/routingCodeValue: is required',
        '/address/city: is required',
        '/address/streetAddress: is required',
        '/address/postalCode: is required',
        '/address/state: is required',
      ]),
    );
    expect(error.message).toContain('/bank/routingCodeType');
    expect(count('beneficiaries.create')).toBe(before);
  });

  it('names the account identifier alternatives when both are missing', async () => {
    const base = achIndividual();
    const { accountNumber: _omit, ...bank } = base.bank;
    const error = await invalidRequest(
      client.beneficiaries.create({ ...base, bank: { ...bank, extras: { clearingSystem: 'LOCAL' } } }),
    );
    expect(error.issues).toContain('/bank: one of accountNumber, iban is required');
  });

  it('refuses what the request shape itself requires before fetching any schema', async () => {
    const before = count('beneficiaries.schema');
    const error = await invalidRequest(
      client.beneficiaries.create({ ...achIndividual(), currency: '', extras: {} as never }),
    );
    expect(error.issues.join('\n')).toMatch(/currency/);
    expect(error.issues.join('\n')).toMatch(/extras\.paymentMethod/);
    expect(count('beneficiaries.schema')).toBe(before);
  });

  it('creates a beneficiary without displayName (optional: the corridor schema does not require it)', async () => {
    const { displayName: _omit, ...withoutName } = achIndividual();
    const created = await client.beneficiaries.create(withoutName);
    expect(created.beneficiary_id).toMatch(/^ben_/);
    // An empty displayName is dropped like any empty field, not sent and not refused.
    const blank = await client.beneficiaries.create(achIndividual({ displayName: '' }));
    expect(blank.beneficiary_id).toMatch(/^ben_/);
  });

  it('fetches each corridor schema once per client', async () => {
    const c = clientFor(sandbox);
    try {
      const before = count('beneficiaries.schema');
      await c.beneficiaries.create(achIndividual());
      await c.beneficiaries.create(achIndividual({ displayName: 'Second' }));
      await invalidRequest(c.beneficiaries.create(achIndividual({ firstName: '' })));
      expect(count('beneficiaries.schema') - before).toBe(1);
      const fedwire = achIndividual();
      await c.beneficiaries.create({
        ...fedwire,
        bank: { ...fedwire.bank, routingCodeType: 'aba', extras: { clearingSystem: 'FEDWIRE' } },
      });
      expect(count('beneficiaries.schema') - before).toBe(2);
    } finally {
      await c.close();
    }
  });

  it("lets the service's own rules refuse what the schema allows", async () => {
    const error = await rejectionOf(client.beneficiaries.create(achIndividual({ companyCode: 'CMP-OTHER' })));
    expect(error).toMatchObject({ kind: 'service', httpStatus: 400, operation: 'beneficiaries.create' });
    expect((error as ServiceError).serviceMessage).toContain('CMP-OTHER');
  });

  it('registers a SWIFT company beneficiary in another corridor', async () => {
    const created = await client.beneficiaries.create({
      companyCode: sandbox.credentials.companyId,
      entityType: 'COMPANY',
      displayName: 'Lion City Traders',
      companyName: 'Lion City Traders Pte. Ltd.',
      currency: 'USD',
      address: { country: 'SG', city: 'Singapore', streetAddress: '1 Raffles Place' },
      bank: {
        bankCountry: 'SG',
        accountCurrency: 'USD',
        accountHolder: 'Lion City Traders Pte. Ltd.',
        accountNumber: '0123456789',
        swiftCode: 'DBSSSGSG',
        bankName: 'DBS Bank',
        extras: { clearingSystem: 'SWIFT' },
      },
      extras: { paymentMethod: 'SWIFT' },
    });
    expect(created.beneficiary_id).toMatch(/^ben_/);
  });
});
