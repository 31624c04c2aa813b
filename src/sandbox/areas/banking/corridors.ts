/**
 * Beneficiary corridors (currency, bank country, entity type, payment method) and the JSON Schema
 * (draft 2020-12) each one demands. The USD / LOCAL / bank-in-US corridor is the spec's sample,
 * reproduced field for field; the others follow its pattern (docs/sandbox/banking.md).
 */
export type EntityType = 'INDIVIDUAL' | 'COMPANY';
export type PaymentMethod = 'LOCAL' | 'SWIFT';
export type JsonSchema = Record<string, unknown>;

/** Extra requirements a clearing system adds (the sample's `if`/`then` rules). */
interface RailRule {
  rail: string;
  routingCodeType: string;
  bankRequired: readonly string[];
  addressRequired: readonly string[];
}

export interface Corridor {
  currency: string;
  country: string;
  entityType: EntityType;
  paymentMethod: PaymentMethod;
  description: string;
  /** The `bank.extras.clearingSystem` values offered. */
  rails: readonly string[];
  /** `bank` properties in schema order; `extras` marks where the clearing-system object goes. */
  bankFields: readonly string[];
  bankRequired: readonly string[];
  addressRequired: readonly string[];
  routingCodeTypes: readonly string[];
  rules: readonly RailRule[];
}

/** The bank country assumed when a request does not give one (the currency's home country). */
export const HOME_COUNTRY: Readonly<Record<string, string>> = { USD: 'US', EUR: 'DE' };

const ADDRESS_FIELDS = ['country', 'city', 'streetAddress', 'postalCode', 'state', 'nationality'] as const;
const US_RULE_BANK = [
  'accountNumber',
  'routingCodeType',
  'routingCodeValue',
  'swiftCode',
  'bankName',
  'bankAddress',
];
const US_RULE_ADDRESS = ['country', 'city', 'streetAddress', 'postalCode', 'state'];

function usLocal(entityType: EntityType): Corridor {
  const who = entityType === 'INDIVIDUAL' ? "an individual's" : "a company's";
  return {
    currency: 'USD',
    country: 'US',
    entityType,
    paymentMethod: 'LOCAL',
    description: `USD local transfer (ACH, Fedwire or local) to ${who} account at a US bank`,
    rails: ['ACH', 'FEDWIRE', 'LOCAL'],
    bankFields: [
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
    ],
    bankRequired: ['bankCountry', 'accountCurrency', 'accountHolder', 'extras'],
    addressRequired: ['country'],
    routingCodeTypes: ['aba', 'ach'],
    rules: [
      { rail: 'ACH', routingCodeType: 'ach', bankRequired: US_RULE_BANK, addressRequired: US_RULE_ADDRESS },
      {
        rail: 'FEDWIRE',
        routingCodeType: 'aba',
        bankRequired: US_RULE_BANK,
        addressRequired: US_RULE_ADDRESS,
      },
    ],
  };
}

function swift(currency: string, country: string, entityType: EntityType): Corridor {
  const who = entityType === 'INDIVIDUAL' ? "an individual's" : "a company's";
  return {
    currency,
    country,
    entityType,
    paymentMethod: 'SWIFT',
    description: `${currency} international wire (SWIFT) to ${who} account at a bank in ${country}`,
    rails: ['SWIFT'],
    bankFields: [
      'bankCountry',
      'accountCurrency',
      'accountHolder',
      'extras',
      'bankName',
      'bankAddress',
      'accountNumber',
      'iban',
      'swiftCode',
    ],
    bankRequired: ['swiftCode', 'bankName', 'bankCountry', 'accountHolder', 'accountCurrency', 'extras'],
    addressRequired: ['country', 'city', 'streetAddress'],
    routingCodeTypes: [],
    rules: [],
  };
}

export const CORRIDORS: readonly Corridor[] = [
  usLocal('INDIVIDUAL'),
  usLocal('COMPANY'),
  swift('USD', 'US', 'INDIVIDUAL'),
  swift('USD', 'US', 'COMPANY'),
  swift('USD', 'SG', 'INDIVIDUAL'),
  swift('USD', 'SG', 'COMPANY'),
  swift('EUR', 'DE', 'INDIVIDUAL'),
  swift('EUR', 'DE', 'COMPANY'),
];

export interface CorridorKey {
  currency: string;
  country: string;
  entityType: string;
  paymentMethod: string;
}

export const findCorridor = (key: CorridorKey): Corridor | undefined =>
  CORRIDORS.find(
    (c) =>
      c.currency === key.currency &&
      c.country === key.country &&
      c.entityType === key.entityType &&
      c.paymentMethod === key.paymentMethod,
  );

export const describeKey = (key: CorridorKey): string =>
  `currency ${key.currency}, entityType ${key.entityType}, paymentMethod ${key.paymentMethod}, bank country ${key.country}`;

/** Empty strings are refused: optional fields that do not apply are omitted, never sent empty. */
const STRING = { type: 'string', minLength: 1 } as const;

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** `if clearingSystem = rail then …`, as in the sample corridor. */
function ruleSchema(rule: RailRule): JsonSchema {
  return {
    if: {
      properties: {
        bank: {
          properties: {
            extras: { properties: { clearingSystem: { const: rule.rail } }, required: ['clearingSystem'] },
          },
          required: ['extras'],
        },
      },
      required: ['bank'],
    },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; this object is never awaited
    then: {
      properties: {
        bank: {
          properties: { routingCodeType: { const: rule.routingCodeType } },
          required: [...rule.bankRequired],
        },
        address: { required: [...rule.addressRequired] },
      },
    },
  };
}

/** Kept in `allOf` (rather than inside `bank`) so that `allOf` is never empty. */
const ACCOUNT_IDENTIFIER_RULE: JsonSchema = {
  properties: { bank: { anyOf: [{ required: ['accountNumber'] }, { required: ['iban'] }] } },
};

/**
 * The corridor's schema. Without `rail`, `bank.extras.clearingSystem` lists every rail and the
 * rail-specific demands are conditional; with a rail, the clearing system is fixed and that rail's
 * demands (e.g. the required `routingCodeType` and its constant) are folded into `required`.
 */
export function corridorSchema(c: Corridor, rail?: string): JsonSchema {
  const rule = rail === undefined ? undefined : c.rules.find((r) => r.rail === rail);
  const bankProperties: Record<string, unknown> = {};
  for (const field of c.bankFields) {
    if (field === 'extras') {
      bankProperties.extras = {
        type: 'object',
        properties: { clearingSystem: { type: 'string', enum: rail === undefined ? [...c.rails] : [rail] } },
        required: ['clearingSystem'],
      };
    } else if (field === 'routingCodeType') {
      bankProperties.routingCodeType =
        rule === undefined
          ? { type: 'string', enum: [...c.routingCodeTypes] }
          : { type: 'string', const: rule.routingCodeType };
    } else {
      bankProperties[field] = STRING;
    }
  }
  const names: Record<string, unknown> =
    c.entityType === 'INDIVIDUAL' ? { firstName: STRING, lastName: STRING } : { companyName: STRING };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `${c.currency} ${c.paymentMethod} beneficiary, ${c.entityType}, bank in ${c.country}${rail === undefined ? '' : `, via ${rail}`}`,
    type: 'object',
    required: ['companyCode', 'entityType', 'currency', ...Object.keys(names), 'bank', 'extras', 'address'],
    properties: {
      email: STRING,
      displayName: STRING,
      companyCode: STRING,
      entityType: { type: 'string', enum: [c.entityType] },
      currency: { type: 'string', enum: [c.currency] },
      country: STRING,
      ...names,
      bank: {
        type: 'object',
        properties: bankProperties,
        required: union(c.bankRequired, rule?.bankRequired ?? []),
      },
      address: {
        type: 'object',
        properties: Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, STRING])),
        required: union(c.addressRequired, rule?.addressRequired ?? []),
      },
      extras: {
        type: 'object',
        properties: { paymentMethod: { type: 'string', enum: [c.paymentMethod] } },
        required: ['paymentMethod'],
      },
    },
    allOf: [ACCOUNT_IDENTIFIER_RULE, ...c.rules.map(ruleSchema)],
  };
}
