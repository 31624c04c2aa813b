import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { achBeneficiary, type BankingCaller, bankingCaller, COMPANY } from '../helpers/banking.js';
import { type RunningSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let bank: BankingCaller;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  bank = await bankingCaller(sandbox);
});
afterAll(() => sandbox.close());

const SAMPLE = '/beneficiaries/schema?currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL';

function swiftCompany(): Record<string, unknown> {
  return {
    companyCode: COMPANY,
    entityType: 'COMPANY',
    displayName: 'Lyon Textiles',
    companyName: 'Lyon Textiles SARL',
    currency: 'EUR',
    address: { country: 'DE', city: 'Berlin', streetAddress: 'Unter den Linden 1' },
    bank: {
      bankCountry: 'DE',
      accountCurrency: 'EUR',
      accountHolder: 'Lyon Textiles SARL',
      bankName: 'Deutsche Bank AG',
      iban: 'DE44500105175407324931',
      swiftCode: 'DEUTDEFF',
      extras: { clearingSystem: 'SWIFT' },
    },
    extras: { paymentMethod: 'SWIFT' },
  };
}

describe('beneficiary corridor options', () => {
  it('lists corridors, filtered by currency', async () => {
    const all = await bank.get('/beneficiaries/options');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ code: 200, status: 'SUCCESS' });
    expect(all.body.data).toContainEqual({
      currency: 'USD',
      country: 'US',
      entityType: 'INDIVIDUAL',
      paymentMethod: 'LOCAL',
      description: expect.any(String),
    });
    expect(all.body.data).toContainEqual(
      expect.objectContaining({
        currency: 'EUR',
        country: 'DE',
        entityType: 'COMPANY',
        paymentMethod: 'SWIFT',
      }),
    );
    const eur = await bank.get('/beneficiaries/options?currency=EUR');
    expect(eur.body.data.length).toBeGreaterThan(0);
    expect(eur.body.data.every((o: { currency: string }) => o.currency === 'EUR')).toBe(true);
    expect((await bank.get('/beneficiaries/options?currency=JPY')).body.data).toEqual([]);
  });

  it('refuses a lower-case currency filter with 400 naming the rule, as the account list does', async () => {
    for (const path of [
      '/beneficiaries/options?currency=usd',
      `/accounts?companyCode=${COMPANY}&currency=usd`,
    ]) {
      const res = await bank.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 400, status: 'error' });
      expect(res.body.message).toContain(
        'query parameter currency must be a 3-letter upper-case currency code',
      );
    }
  });
});

describe('beneficiary schema', () => {
  it('returns the sample corridor (USD, LOCAL, INDIVIDUAL, bank in US) as the spec gives it', async () => {
    const res = await bank.get(SAMPLE);
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(s.type).toBe('object');
    expect(typeof s.title).toBe('string');
    expect(Object.keys(s.properties).sort()).toEqual(
      [
        'email',
        'displayName',
        'companyCode',
        'entityType',
        'currency',
        'country',
        'firstName',
        'lastName',
        'bank',
        'address',
        'extras',
      ].sort(),
    );
    expect(s.required).toEqual([
      'companyCode',
      'entityType',
      'currency',
      'firstName',
      'lastName',
      'bank',
      'extras',
      'address',
    ]);
    expect(s.properties.entityType.enum).toEqual(['INDIVIDUAL']);
    expect(s.properties.currency.enum).toEqual(['USD']);
    expect(s.properties.extras).toMatchObject({
      properties: { paymentMethod: { enum: ['LOCAL'] } },
      required: ['paymentMethod'],
    });
    expect(s.properties.displayName.minLength).toBe(1);

    const b = s.properties.bank;
    expect(Object.keys(b.properties).sort()).toEqual(
      [
        'bankCountry',
        'accountCurrency',
        'accountHolder',
        'extras',
        'bankName',
        'bankAddress',
        'accountNumber',
        'iban',
        'routingCodeType',
        'routingCodeValue',
        'swiftCode',
      ].sort(),
    );
    expect(b.required).toEqual(['bankCountry', 'accountCurrency', 'accountHolder', 'extras']);
    expect(b.properties.extras).toMatchObject({
      properties: { clearingSystem: { enum: ['ACH', 'FEDWIRE', 'LOCAL'] } },
      required: ['clearingSystem'],
    });
    expect(b.properties.routingCodeType.enum).toEqual(['aba', 'ach']);
    expect(s.properties.address.required).toEqual(['country']);
    expect(Object.keys(s.properties.address.properties).sort()).toEqual(
      ['country', 'city', 'streetAddress', 'postalCode', 'state', 'nationality'].sort(),
    );

    expect(s.allOf).toContainEqual({
      properties: { bank: { anyOf: [{ required: ['accountNumber'] }, { required: ['iban'] }] } },
    });
    const rules = s.allOf.filter((r: { if?: unknown }) => r.if !== undefined);
    const rail = (r: {
      if: {
        properties: {
          bank: { properties: { extras: { properties: { clearingSystem: { const: string } } } } };
        };
      };
    }) => r.if.properties.bank.properties.extras.properties.clearingSystem.const;
    expect(rules.map(rail)).toEqual(['ACH', 'FEDWIRE']);
    const [ach, fedwire] = rules;
    expect(ach.then.properties.bank.properties.routingCodeType).toEqual({ const: 'ach' });
    expect(fedwire.then.properties.bank.properties.routingCodeType).toEqual({ const: 'aba' });
    for (const rule of rules) {
      expect(rule.then.properties.bank.required.sort()).toEqual(
        [
          'accountNumber',
          'routingCodeType',
          'routingCodeValue',
          'swiftCode',
          'bankName',
          'bankAddress',
        ].sort(),
      );
      expect(rule.then.properties.address.required.sort()).toEqual(
        ['country', 'city', 'streetAddress', 'postalCode', 'state'].sort(),
      );
    }
  });

  it('returns the rail-specific schema when clearingSystem is given', async () => {
    const ach = (await bank.get(`${SAMPLE}&clearingSystem=ACH`)).body.data;
    expect(ach.properties.bank.properties.extras.properties.clearingSystem.enum).toEqual(['ACH']);
    expect(ach.properties.bank.properties.routingCodeType).toEqual({ type: 'string', const: 'ach' });
    expect(ach.properties.bank.required).toEqual(
      expect.arrayContaining(['routingCodeType', 'routingCodeValue', 'accountNumber', 'swiftCode']),
    );
    expect(ach.properties.address.required).toEqual(expect.arrayContaining(['city', 'state', 'postalCode']));

    const fedwire = (await bank.get(`${SAMPLE}&clearingSystem=FEDWIRE`)).body.data;
    expect(fedwire.properties.bank.properties.routingCodeType.const).toBe('aba');

    const local = (await bank.get(`${SAMPLE}&clearingSystem=LOCAL`)).body.data;
    expect(local.properties.bank.required).toEqual([
      'bankCountry',
      'accountCurrency',
      'accountHolder',
      'extras',
    ]);
    expect(local.properties.address.required).toEqual(['country']);
  });

  it('uses companyName for companies and SWIFT requirements for wires', async () => {
    const company = (
      await bank.get('/beneficiaries/schema?currency=USD&entityType=COMPANY&paymentMethod=LOCAL')
    ).body.data;
    expect(company.required).toContain('companyName');
    expect(company.required).not.toContain('firstName');
    expect(company.properties.firstName).toBeUndefined();

    const wire = await bank.get(
      '/beneficiaries/schema?currency=EUR&entityType=INDIVIDUAL&paymentMethod=SWIFT',
    );
    expect(wire.status).toBe(200);
    const bankSchema = wire.body.data.properties.bank;
    expect(bankSchema.required).toEqual(
      expect.arrayContaining(['swiftCode', 'bankName', 'bankCountry', 'accountHolder', 'accountCurrency']),
    );
    expect(bankSchema.properties.extras.properties.clearingSystem.enum).toEqual(['SWIFT']);

    // A bank outside the currency's home country is named with `country`.
    const abroad = await bank.get(
      '/beneficiaries/schema?currency=USD&entityType=COMPANY&paymentMethod=SWIFT&country=SG',
    );
    expect(abroad.status).toBe(200);
    expect(abroad.body.data.title).toContain('SG');
  });

  it.each([
    ['entityType=INDIVIDUAL&paymentMethod=LOCAL', 'missing required query parameter currency'],
    ['currency=USD&paymentMethod=LOCAL', 'missing required query parameter entityType'],
    ['currency=USD&entityType=INDIVIDUAL', 'missing required query parameter paymentMethod'],
    ['currency=USD&entityType=PERSON&paymentMethod=LOCAL', 'entityType must be one of INDIVIDUAL, COMPANY'],
    ['currency=USD&entityType=INDIVIDUAL&paymentMethod=WIRE', 'paymentMethod must be one of LOCAL, SWIFT'],
    ['currency=GBP&entityType=INDIVIDUAL&paymentMethod=LOCAL', 'no beneficiary corridor for currency GBP'],
    ['currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=FR', 'bank country FR'],
    ['currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&country=XX', 'country must be a 2-letter'],
    ['currency=USD&entityType=INDIVIDUAL&paymentMethod=LOCAL&clearingSystem=SEPA', "clearingSystem 'SEPA'"],
  ])('refuses %s', async (query, message) => {
    const res = await bank.get(`/beneficiaries/schema?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, status: 'error' });
    expect(res.body.message).toContain(message);
  });
});

describe('beneficiary creation', () => {
  it('creates a beneficiary matching the corridor schema and returns only its id', async () => {
    const res = await bank.post('/beneficiaries', achBeneficiary());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, status: 'SUCCESS' });
    expect(Object.keys(res.body.data)).toEqual(['beneficiary_id']);
    expect(res.body.data.beneficiary_id).toMatch(/^ben_/);

    const quote = await bank.post('/payouts/quote', {
      companyCode: COMPANY,
      beneficiaryId: res.body.data.beneficiary_id,
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      amount: 10,
      side: 'SOURCE',
    });
    expect(quote.status).toBe(200);
  });

  it('accepts FEDWIRE, LOCAL with only an IBAN, and a SWIFT company', async () => {
    const fedwire = achBeneficiary();
    fedwire.bank.routingCodeType = 'aba';
    fedwire.bank.extras = { clearingSystem: 'FEDWIRE' };
    expect((await bank.post('/beneficiaries', fedwire)).status).toBe(200);

    const local = achBeneficiary();
    local.bank = {
      bankCountry: 'US',
      accountCurrency: 'USD',
      accountHolder: 'John Smith',
      iban: 'US00TEST0000000001',
      extras: { clearingSystem: 'LOCAL' },
    };
    local.address = { country: 'US' };
    const res = await bank.post('/beneficiaries', local);
    expect(res.status, res.body.message).toBe(200);

    const wire = await bank.post('/beneficiaries', swiftCompany());
    expect(wire.status, wire.body.message).toBe(200);
  });

  it('refuses ACH without its routing fields, naming each', async () => {
    const body = achBeneficiary();
    delete body.bank.routingCodeType;
    delete body.bank.routingCodeValue;
    delete body.address.state;
    const res = await bank.post('/beneficiaries', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.message).toContain('bank.routingCodeType: is required');
    expect(res.body.message).toContain('bank.routingCodeValue: is required');
    expect(res.body.message).toContain('address.state: is required');
  });

  it('refuses the wrong routingCodeType for the rail', async () => {
    const body = achBeneficiary();
    body.bank.routingCodeType = 'aba';
    const res = await bank.post('/beneficiaries', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("bank.routingCodeType: must be equal to constant 'ach'");
  });

  it('refuses empty strings', async () => {
    const body = achBeneficiary();
    body.bank.bankName = '';
    body.email = '';
    const res = await bank.post('/beneficiaries', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('bank.bankName: must not be empty');
    expect(res.body.message).toContain('email: must not be empty');
  });

  it('refuses a bank with neither accountNumber nor iban', async () => {
    const body = achBeneficiary();
    body.bank = {
      bankCountry: 'US',
      accountCurrency: 'USD',
      accountHolder: 'John Smith',
      extras: { clearingSystem: 'LOCAL' },
    };
    const res = await bank.post('/beneficiaries', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'beneficiary does not match the corridor schema: bank: must include at least one of accountNumber or iban',
    );
  });

  it('accepts a beneficiary without displayName (the corridor schema does not require it)', async () => {
    const body = achBeneficiary();
    delete body.displayName;
    const res = await bank.post('/beneficiaries', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.beneficiary_id).toMatch(/^ben_/);
    // The new payee can be paid like any other.
    const q = await bank.post('/payouts/quote', {
      companyCode: COMPANY,
      beneficiaryId: res.body.data.beneficiary_id,
      destinationRail: 'ACH',
      sourceAssetCode: 'USD',
      sourceAccountId: 'acc_usd_0001',
      amount: 10,
      side: 'SOURCE',
    });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
  });

  it('refuses an empty displayName (and a non-string one)', async () => {
    const empty = await bank.post('/beneficiaries', { ...achBeneficiary(), displayName: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('displayName: must not be empty');
    const number = await bank.post('/beneficiaries', { ...achBeneficiary(), displayName: 42 });
    expect(number.status).toBe(400);
    expect(number.body.message).toContain('displayName: must be string');
  });

  it('refuses an unknown clearing system, other-currency fields and missing names', async () => {
    const body = achBeneficiary();
    body.bank.extras = { clearingSystem: 'WIRE' };
    delete body.firstName;
    body.currency = 'USD';
    const res = await bank.post('/beneficiaries', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('bank.extras.clearingSystem: must be one of ACH, FEDWIRE, LOCAL');
    expect(res.body.message).toContain('firstName: is required');
  });

  it('refuses a missing or wrong companyCode and an unknown corridor', async () => {
    const missing = achBeneficiary();
    delete missing.companyCode;
    expect((await bank.post('/beneficiaries', missing)).body.message).toContain('companyCode: is required');

    const wrong = { ...achBeneficiary(), companyCode: 'CMP-OTHER' };
    expect((await bank.post('/beneficiaries', wrong)).body.message).toBe("unknown companyCode 'CMP-OTHER'");

    const gbp = { ...achBeneficiary(), currency: 'GBP' };
    const res = await bank.post('/beneficiaries', gbp);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('no beneficiary corridor for currency GBP');

    const noMethod = { ...achBeneficiary(), extras: {} };
    expect((await bank.post('/beneficiaries', noMethod)).body.message).toContain(
      'extras.paymentMethod: is required',
    );
  });

  it('replays a repeated x-request-id and refuses it for a different body', async () => {
    const headers = bank.headers();
    const first = await bank.post('/beneficiaries', achBeneficiary(), headers);
    const again = await bank.post('/beneficiaries', achBeneficiary(), headers);
    expect(again.status).toBe(200);
    expect(again.body.data.beneficiary_id).toBe(first.body.data.beneficiary_id);

    const other = { ...achBeneficiary(), displayName: 'Someone else' };
    const conflict = await bank.post('/beneficiaries', other, headers);
    expect(conflict.status).toBe(400);
    expect(conflict.body.message).toContain('already used');
  });
});
