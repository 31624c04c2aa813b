import { optional } from '../../core/optional.js';
import type { JsonSchema } from '../../present/args.js';
import { labelOf } from '../../present/output/format.js';

/** One input of a generated form: a leaf of the tool's input schema, by dotted path. */
export interface FormField {
  path: string;
  label: string;
  hint?: string;
  required: boolean;
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'json';
  options?: string[];
}

/**
 * Fields the configuration fills in (company, program and agent codes, who created it): left out
 * of forms, so people see what they must decide. A value typed for one in the command is kept.
 */
const CONFIGURED_FIELDS = new Set([
  'companyCode',
  'company_code',
  'program_code',
  'agent_code',
  'subagent_code',
  'created_by',
  'updated_by',
]);

const asSchema = (value: unknown): JsonSchema | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;

/** The schema without its `null` or optional wrappers (`anyOf: [X, {type: null}]` → X). */
function unwrap(node: JsonSchema): JsonSchema {
  const options = (node.anyOf ?? node.oneOf) as unknown;
  if (!Array.isArray(options)) return node;
  const real = options.map(asSchema).filter((o): o is JsonSchema => o !== undefined && o.type !== 'null');
  return real.length === 1 && real[0] !== undefined
    ? { ...real[0], ...optional('description', node.description) }
    : node;
}

function kindOf(node: JsonSchema): Pick<FormField, 'kind' | 'options'> {
  const values = node.enum ?? (node.const === undefined ? undefined : [node.const]);
  if (
    Array.isArray(values) &&
    values.length > 0 &&
    values.length <= 100 &&
    values.every((v) => typeof v === 'string')
  ) {
    return { kind: 'select', options: values as string[] };
  }
  switch (node.type) {
    case 'number':
      return { kind: 'number' };
    case 'integer':
      return { kind: 'integer' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'string':
      return { kind: 'text' };
    default:
      return { kind: 'json' };
  }
}

/**
 * The form of a JSON Schema object: one field per leaf, nested objects opened (`address.city`,
 * labelled `Address › City`) up to three levels, required when the schema and every parent require
 * it. Arrays and anything else unusual become a JSON text field.
 */
export function formFields(schema: JsonSchema, prefix = '', parentRequired = true, depth = 0): FormField[] {
  const properties = asSchema(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields: FormField[] = [];
  for (const [key, raw] of Object.entries(properties)) {
    const node = asSchema(raw);
    if (node === undefined || (depth === 0 && CONFIGURED_FIELDS.has(key))) continue;
    const inner = unwrap(node);
    const path = `${prefix}${key}`;
    const isRequired = parentRequired && required.has(key);
    if (inner.type === 'object' && asSchema(inner.properties) !== undefined && depth < 3) {
      fields.push(
        ...formFields(inner, `${path}.`, isRequired, depth + 1).map((field) => ({
          ...field,
          label: `${labelOf(key)} › ${field.label}`,
        })),
      );
      continue;
    }
    const description = typeof inner.description === 'string' ? inner.description : undefined;
    fields.push({
      path,
      label: labelOf(key),
      ...optional('hint', description),
      required: isRequired,
      ...kindOf(inner),
    });
  }
  return fields;
}

/** The required fields an input leaves out (nested ones only where their parent is given or required). */
export function missingRequired(fields: readonly FormField[], input: Record<string, unknown>): FormField[] {
  return fields.filter((field) => field.required && valueAt(input, field.path) === undefined);
}

export function valueAt(input: Record<string, unknown>, path: string): unknown {
  let node: unknown = input;
  for (const segment of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
