import { z } from 'zod';
import { isCountryCode } from '../../countries.js';
import { invalid } from '../../errors.js';
import type { RouteDef, SandboxContext, SandboxRequest } from '../../types.js';
import { optionalQuery, parseInput, requiredQuery } from '../../validate.js';
import {
  CORRIDORS,
  type Corridor,
  type CorridorKey,
  corridorSchema,
  describeKey,
  findCorridor,
  HOME_COUNTRY,
} from './corridors.js';
import { checkCompanyCode, currencyFilterQuery, oneOf, requiredString } from './fields.js';
import { checkAgainstCorridor } from './schema-check.js';
import type { BankingState } from './state.js';

const PREFIX = '/svc/banking/api/v1/beneficiaries';
const ENTITY_TYPES = ['INDIVIDUAL', 'COMPANY'] as const;
const PAYMENT_METHODS = ['LOCAL', 'SWIFT'] as const;

function corridorOrFail(key: CorridorKey): Corridor {
  const corridor = findCorridor(key);
  if (corridor === undefined) {
    throw invalid(`no beneficiary corridor for ${describeKey(key)}; see GET ${PREFIX}/options`);
  }
  return corridor;
}

function enumQuery<T extends string>(req: SandboxRequest, name: string, values: readonly T[]): T {
  const value = requiredQuery(req, name);
  const match = values.find((v) => v === value);
  if (match === undefined) throw invalid(`query parameter ${name} must be one of ${values.join(', ')}`);
  return match;
}

/** What the create request must carry for the sandbox to pick the corridor schema it is checked against. */
const CorridorSelector = z.looseObject({
  companyCode: requiredString(),
  entityType: oneOf(ENTITY_TYPES),
  currency: requiredString(),
  extras: z.looseObject(
    { paymentMethod: oneOf(PAYMENT_METHODS) },
    { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an object') },
  ),
});

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const stringOrUndefined = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export function beneficiaryRoutes(ctx: SandboxContext, state: () => BankingState): RouteDef[] {
  const base = { envelope: 'banking', headers: 'HB', successCode: 200 } as const;
  return [
    {
      ...base,
      operation: 'beneficiaries.options',
      method: 'GET',
      path: `${PREFIX}/options`,
      handler: (req) => {
        const currency = currencyFilterQuery(req);
        const options = CORRIDORS.filter((c) => currency === undefined || c.currency === currency);
        return {
          data: options.map((c) => ({
            currency: c.currency,
            country: c.country,
            entityType: c.entityType,
            paymentMethod: c.paymentMethod,
            description: c.description,
          })),
        };
      },
    },
    {
      ...base,
      operation: 'beneficiaries.schema',
      method: 'GET',
      path: `${PREFIX}/schema`,
      handler: (req) => {
        const currency = requiredQuery(req, 'currency');
        const entityType = enumQuery(req, 'entityType', ENTITY_TYPES);
        const paymentMethod = enumQuery(req, 'paymentMethod', PAYMENT_METHODS);
        const given = optionalQuery(req, 'country');
        if (given !== undefined && !isCountryCode(given)) {
          throw invalid('query parameter country must be a 2-letter ISO 3166-1 country code');
        }
        const country = given ?? HOME_COUNTRY[currency] ?? '(not given)';
        const corridor = corridorOrFail({ currency, country, entityType, paymentMethod });
        const rail = optionalQuery(req, 'clearingSystem');
        if (rail !== undefined && !corridor.rails.includes(rail)) {
          throw invalid(
            `clearingSystem '${rail}' is not offered for ${describeKey(corridor)}; offered: ${corridor.rails.join(', ')}`,
          );
        }
        return { data: corridorSchema(corridor, rail) };
      },
    },
    {
      ...base,
      operation: 'beneficiaries.create',
      method: 'POST',
      path: PREFIX,
      idempotent: true,
      handler: async (req) => {
        const sel = parseInput(CorridorSelector, req.body);
        checkCompanyCode(ctx, sel.companyCode);
        const body = asRecord(req.body);
        const bank = asRecord(body.bank);
        const corridor = corridorOrFail({
          currency: sel.currency,
          // Without a bank country the currency's home country is assumed; the schema then asks for it.
          country: stringOrUndefined(bank.bankCountry) ?? HOME_COUNTRY[sel.currency] ?? '(not given)',
          entityType: sel.entityType,
          paymentMethod: sel.extras.paymentMethod,
        });
        const chosen = stringOrUndefined(asRecord(bank.extras).clearingSystem);
        const rail = chosen !== undefined && corridor.rails.includes(chosen) ? chosen : undefined;
        // `displayName` is judged by the corridor schema alone: listed there as a non-empty string
        // but not required (the request field list's "yes" is met by accepting it when given).
        const problems = await checkAgainstCorridor(corridor, rail, body);
        if (problems.length > 0) {
          throw invalid(`beneficiary does not match the corridor schema: ${problems.join('; ')}`);
        }

        const beneficiaryId = ctx.newId('ben');
        state().beneficiaries.set(beneficiaryId, {
          beneficiaryId,
          entityType: sel.entityType,
          displayName: stringOrUndefined(body.displayName) ?? null,
          currency: corridor.currency,
          bankCountry: corridor.country,
          paymentMethod: corridor.paymentMethod,
          clearingSystem: rail ?? null,
          accountNumber: stringOrUndefined(bank.accountNumber) ?? null,
          createdAtMs: ctx.clock.nowMs(),
        });
        return { data: { beneficiary_id: beneficiaryId } };
      },
    },
  ];
}
