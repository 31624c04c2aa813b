import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Removes empty strings, nulls and undefined values, recursively: the spec says optional fields
 * that do not apply are omitted, never sent empty. Objects are kept even when left empty, so that a
 * missing field inside one is reported by its own path (`extras.paymentMethod`).
 */
export function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(pruneEmpty).filter((item) => item !== undefined);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      const pruned = pruneEmpty(field);
      if (pruned !== undefined) out[key] = pruned;
    }
    return out;
  }
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

const missingOf = (error: ErrorObject): string | undefined =>
  error.keyword === 'required'
    ? String((error.params as { missingProperty?: unknown }).missingProperty ?? '')
    : undefined;

/** `/bank/routingCodeType: must be equal to constant "ach"`; a missing field is named by its own path. */
function describe(error: ErrorObject): string {
  const at = error.instancePath;
  const missing = missingOf(error);
  if (missing !== undefined) return `${at}/${missing}: is required`;
  const allowed = error.params as { allowedValue?: unknown; allowedValues?: unknown };
  const detail =
    error.keyword === 'const' && typeof allowed.allowedValue === 'string'
      ? ` "${allowed.allowedValue}"`
      : error.keyword === 'enum' && Array.isArray(allowed.allowedValues)
        ? ` (${allowed.allowedValues.map(String).join(', ')})`
        : '';
  return `${at === '' ? '/' : at}: ${error.message ?? 'is invalid'}${detail}`;
}

/**
 * One line per failure. `if` failures only restate their `then` errors, so they are dropped; the
 * branches of an `anyOf` are folded into one line, since each branch alone is not a requirement.
 */
function summarise(errors: readonly ErrorObject[]): string[] {
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const inBranch = (e: ErrorObject): ErrorObject | undefined =>
    anyOfs.find((a) => e.schemaPath.startsWith(`${a.schemaPath}/`));
  const lines: string[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || inBranch(error) !== undefined) continue;
    if (error.keyword !== 'anyOf') {
      lines.push(describe(error));
      continue;
    }
    const branches = errors.filter((e) => inBranch(e) === error);
    const missing = branches.map(missingOf);
    const at = error.instancePath === '' ? '/' : error.instancePath;
    lines.push(
      missing.every((m) => m !== undefined) && branches.every((b) => b.instancePath === error.instancePath)
        ? `${at}: one of ${missing.join(', ')} is required`
        : `${at}: must satisfy one of: ${branches.map(describe).join(' | ')}`,
    );
  }
  return lines;
}

/**
 * Compiles corridor JSON Schemas (draft 2020-12) once each and lists what a request breaks.
 * Formats and unknown keywords are left to the service: the schema comes from it and may use
 * vocabulary ajv does not know. Ajv is loaded at the first beneficiary created, not by every
 * command that builds a client.
 */
export class CorridorValidator {
  #ajv: Promise<Ajv2020> | undefined;
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  #loaded(): Promise<Ajv2020> {
    this.#ajv ??= import('./ajv.js').then(
      ({ Ajv2020 }) =>
        new Ajv2020({
          allErrors: true,
          strict: false,
          validateFormats: false,
          addUsedSchema: false,
          logger: false,
        }),
    );
    return this.#ajv;
  }

  /** Throws if the schema itself is not a usable JSON Schema. */
  async compile(schema: object): Promise<ValidateFunction> {
    const cached = this.compiled.get(schema);
    if (cached !== undefined) return cached;
    const validate = (await this.#loaded()).compile(schema);
    this.compiled.set(schema, validate);
    return validate;
  }

  /** The failing field paths, empty when the body matches. */
  async issues(schema: object, body: unknown): Promise<string[]> {
    const validate = await this.compile(schema);
    if (validate(body)) return [];
    return [...new Set(summarise(validate.errors ?? []))];
  }
}
