import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { type Corridor, corridorSchema } from './corridors.js';

// Loaded at the first beneficiary created, not by every start of the sandbox. `verbose` keeps each
// failing keyword's schema on the error, needed to word `anyOf` failures.
let ajv: Promise<Ajv2020> | undefined;
const compiled = new Map<string, ValidateFunction>();

async function validatorFor(c: Corridor, rail: string | undefined): Promise<ValidateFunction> {
  const key = `${c.currency}|${c.country}|${c.entityType}|${c.paymentMethod}|${rail ?? ''}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    ajv ??= import('./ajv.js').then(
      ({ Ajv2020 }) => new Ajv2020({ allErrors: true, strict: false, verbose: true }),
    );
    validate = (await ajv).compile(corridorSchema(c, rail));
    compiled.set(key, validate);
  }
  return validate;
}

/** `/bank/extras` → `bank.extras`, `/items/0` → `items[0]`. */
function fieldPath(pointer: string, child?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out === '' ? p : `${out}.${p}`), '');
}

const quoted = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

/** Names required by each branch of an `anyOf` such as `[{required:[a]},{required:[b]}]`. */
function anyOfNames(schema: unknown): string[] {
  if (!Array.isArray(schema)) return [];
  return schema.flatMap((branch: unknown) => {
    const required = (branch as { required?: unknown }).required;
    return Array.isArray(required) ? required.map(String) : [];
  });
}

/** One message per failure, `field: rule`, or `undefined` for ajv's internal bookkeeping errors. */
function describe(e: ErrorObject): string | undefined {
  // `if` failures restate their `then` errors; `anyOf` branch failures are summarised by the anyOf error.
  if (e.keyword === 'if' || e.schemaPath.includes('/anyOf/')) return undefined;
  const params: Record<string, unknown> = e.params;
  const at = (child?: string): string => fieldPath(e.instancePath, child) || '(body)';
  switch (e.keyword) {
    case 'required':
      return `${at(String(params.missingProperty))}: is required`;
    case 'const':
      return `${at()}: must be equal to constant ${quoted(params.allowedValue)}`;
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return `${at()}: must be one of ${allowed.map(String).join(', ')}`;
    }
    case 'minLength':
      return params.limit === 1 ? `${at()}: must not be empty` : `${at()}: ${e.message ?? 'is too short'}`;
    case 'anyOf':
      return `${at()}: must include at least one of ${anyOfNames(e.schema).join(' or ')}`;
    case 'type':
      return `${at()}: must be ${String(params.type)}`;
    default:
      return `${at()}: ${e.message ?? e.keyword}`;
  }
}

/** Validates a beneficiary request against a corridor schema; returns the failures (empty when valid). */
export async function checkAgainstCorridor(
  c: Corridor,
  rail: string | undefined,
  body: unknown,
): Promise<string[]> {
  const validate = await validatorFor(c, rail);
  if (validate(body)) return [];
  const messages = (validate.errors ?? []).map(describe).filter((m): m is string => m !== undefined);
  return [...new Set(messages)];
}
