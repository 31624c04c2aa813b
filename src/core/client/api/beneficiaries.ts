import { messageOf } from '../../errors.js';
import { optional } from '../../optional.js';
import { CorridorValidator, pruneEmpty } from '../beneficiary-validator.js';
import { ServiceError } from '../errors.js';
import { type CallOptions, HttpClient } from '../http.js';
import {
  type BeneficiaryOptionsQuery,
  BeneficiaryOptionsQuerySchema,
  type BeneficiarySchemaQuery,
  BeneficiarySchemaQuerySchema,
  type CorridorJsonSchema,
  CorridorJsonSchemaSchema,
  CorridorOptionsSchema,
  type CreateBeneficiaryInput,
  CreateBeneficiarySchema,
  CreatedBeneficiarySchema,
} from '../schemas/beneficiaries.js';
import { BANKING, family } from './family.js';

/** The corridor query a beneficiary body implies: its currency, entity type, method, bank country and rail. */
function corridorOf(body: {
  currency: string;
  entityType: BeneficiarySchemaQuery['entityType'];
  extras: { paymentMethod: BeneficiarySchemaQuery['paymentMethod'] };
  bank: { bankCountry?: string | undefined; extras?: { clearingSystem?: string | undefined } | undefined };
}): BeneficiarySchemaQuery {
  const { bankCountry } = body.bank;
  const clearingSystem = body.bank.extras?.clearingSystem;
  return {
    currency: body.currency,
    entityType: body.entityType,
    paymentMethod: body.extras.paymentMethod,
    ...optional('country', bankCountry),
    ...optional('clearingSystem', clearingSystem),
  };
}

/** Beneficiary corridors, their JSON Schemas and beneficiary registration (spec "Beneficiaries"). */
export function beneficiariesApi(http: HttpClient) {
  const { send, checked } = family(http, BANKING);
  const validator = new CorridorValidator();
  // Corridor schemas rarely change; one fetch per corridor per client instance.
  const corridorSchemas = new Map<string, Promise<CorridorJsonSchema>>();

  const fetchSchema = (query: BeneficiarySchemaQuery, options?: CallOptions) =>
    checked('beneficiaries.schema', 'GET', '/beneficiaries/schema', CorridorJsonSchemaSchema, options, {
      query: [BeneficiarySchemaQuerySchema, query],
    });

  const cachedSchema = (query: BeneficiarySchemaQuery, options: CallOptions): Promise<CorridorJsonSchema> => {
    const key = JSON.stringify([
      query.currency,
      query.entityType,
      query.paymentMethod,
      query.country ?? null,
      query.clearingSystem ?? null,
    ]);
    const known = corridorSchemas.get(key);
    if (known !== undefined) return known;
    // The schema fetch is its own request: the caller's request id belongs to the creation.
    const pending = fetchSchema(query, {
      ...optional('timeoutMs', options.timeoutMs),
      ...optional('signal', options.signal),
    });
    corridorSchemas.set(key, pending);
    pending.catch(() => {
      if (corridorSchemas.get(key) === pending) corridorSchemas.delete(key);
    });
    return pending;
  };

  const corridorIssues = async (schema: CorridorJsonSchema, body: unknown): Promise<string[]> => {
    try {
      return await validator.issues(schema, body);
    } catch (error) {
      throw new ServiceError({
        kind: 'invalid_response',
        operation: 'beneficiaries.schema',
        message: `the corridor schema is not a usable JSON Schema: ${messageOf(error)}`,
        cause: error,
      });
    }
  };

  /** The body of a creation, checked against its corridor's schema; throws `invalid_request` naming each field. */
  const checkedBody = async (input: CreateBeneficiaryInput, options: CallOptions) => {
    const pruned = pruneEmpty(input) ?? {};
    const body = HttpClient.checkRequest('beneficiaries.create', CreateBeneficiarySchema, pruned);
    const schema = await cachedSchema(corridorOf(body), options);
    const issues = await corridorIssues(schema, body);
    if (issues.length > 0) {
      throw new ServiceError({
        kind: 'invalid_request',
        operation: 'beneficiaries.create',
        message: `the beneficiary does not match the corridor schema: ${issues.join('; ')}`,
        issues,
      });
    }
    return body;
  };

  return {
    /**
     * The checks of `create` without sending: an approval to create a payee is asked for only
     * when the payee would be accepted.
     */
    check: async (input: CreateBeneficiaryInput, options: CallOptions = {}): Promise<void> => {
      await checkedBody(input, options);
    },

    /** GET /svc/banking/api/v1/beneficiaries/options: the corridors (currency, country, entity type, method). */
    options: (query: BeneficiaryOptionsQuery = {}, options?: CallOptions) =>
      checked('beneficiaries.options', 'GET', '/beneficiaries/options', CorridorOptionsSchema, options, {
        query: [BeneficiaryOptionsQuerySchema, query],
      }),

    /**
     * GET /svc/banking/api/v1/beneficiaries/schema: the corridor's JSON Schema (draft 2020-12).
     * Without `clearingSystem` it lists the rails; with one it adds the rail's rules.
     */
    schema: fetchSchema,

    /**
     * POST /svc/banking/api/v1/beneficiaries: registers a payee; `beneficiary_id` identifies it in
     * payout quotes. Before sending, empty fields are dropped and the body is checked against the
     * corridor schema (fetched once per corridor); a mismatch throws `invalid_request` naming each
     * failing field and nothing is sent.
     */
    create: async (input: CreateBeneficiaryInput, options: CallOptions = {}) => {
      const body = await checkedBody(input, options);
      return send(
        {
          operation: 'beneficiaries.create',
          method: 'POST',
          route: '/beneficiaries',
          body,
          response: CreatedBeneficiarySchema,
        },
        options,
      );
    },
  };
}
