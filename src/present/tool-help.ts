import { optional } from '../core/optional.js';
import { inputJsonSchema } from '../core/registry.js';
import type { AnyTool, ToolDefaults } from '../core/tool.js';
import { placeholders, type ToolExample, toolExample } from './examples.js';

/**
 * Help for one tool, generated from the registry: what it does, each input field (type, required,
 * default, allowed values) and an example that works on the embedded sandbox. Front ends word it in
 * their own syntax (`bankops help <tool>`, Slack's `/bank help <tool>`).
 */

type JsonSchema = Readonly<Record<string, unknown>>;

export interface FieldHelp {
  /** As typed in `key=value`: dotted for nested fields (`bank.accountNumber`). */
  name: string;
  /** `string`, `number`, `integer`, `boolean`, `object`, `array of string`. */
  type: string;
  required: boolean;
  description?: string;
  /** The values the field accepts, when they are a fixed list. */
  allowed?: string[];
  /** What is used when the field is left out: the schema's default, the configuration's or the actor. */
  default?: { text: string; from: 'schema' | 'configuration' | 'actor' };
  /** The field is a secret (PIN, code, key): typed values end up in shell history. */
  secret: boolean;
}

export interface ToolHelp {
  name: string;
  title: string;
  description: string;
  toolset: string;
  /** `read`, `write` or `write, destructive`. */
  kind: string;
  fields: FieldHelp[];
  example: ToolExample;
  /** Example fields that hold an id a previous call returns (`<payoutId from create_payout>`). */
  placeholders: string[];
}

const isRecord = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema's own node and its non-null `anyOf` options. */
function options(schema: JsonSchema): JsonSchema[] {
  const anyOf = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(anyOf)) return [schema];
  return anyOf.filter(isRecord).filter((o) => o.type !== 'null');
}

function typeOf(schema: JsonSchema): string {
  const types = options(schema).map((o) => {
    if (o.type === 'array') {
      const items = isRecord(o.items) ? typeOf(o.items) : 'any';
      return `array of ${items}`;
    }
    if (typeof o.type === 'string') return o.type;
    if (Array.isArray(o.type)) return o.type.filter((t) => t !== 'null').join(' or ');
    if (Array.isArray(o.enum)) return typeof o.enum[0];
    if (o.const !== undefined) return typeof o.const;
    return 'any';
  });
  return [...new Set(types)].join(' or ') || 'any';
}

function allowedOf(schema: JsonSchema): string[] | undefined {
  const values = options(schema).flatMap((o) =>
    Array.isArray(o.enum) ? o.enum : o.const === undefined ? [] : [o.const],
  );
  return values.length === 0 ? undefined : values.map(String);
}

const CONFIGURED: [RegExp, keyof ToolDefaults][] = [
  [/^company_?code$/i, 'companyCode'],
  [/^program_?code$/i, 'programCode'],
  [/^agent_?code$/i, 'agentCode'],
  [/^sub_?agent_?code$/i, 'subagentCode'],
];

/**
 * What an omitted field becomes: the schema's default; else, for the fields every tool fills from the
 * configuration (company, program, agent and sub-agent codes) or the actor (`created_by`,
 * `updated_by`), that value. Only top-level optional fields: the tools fill those alone.
 */
function defaultOf(
  name: string,
  schema: JsonSchema,
  optionalTopLevel: boolean,
  defaults: ToolDefaults | undefined,
): FieldHelp['default'] | undefined {
  if (schema.default !== undefined) return { text: String(schema.default), from: 'schema' };
  if (!optionalTopLevel) return undefined;
  if (/^(created|updated)_?by$/i.test(name)) return { text: 'the acting user', from: 'actor' };
  const key = CONFIGURED.find(([pattern]) => pattern.test(name))?.[1];
  if (key === undefined) return undefined;
  return { text: defaults?.[key] ?? 'the configured value', from: 'configuration' };
}

/** The fields of an object schema, nested objects as dotted names after their parent (3 levels). */
function fieldsOf(
  schema: JsonSchema,
  prefix: string,
  parentRequired: boolean,
  secrets: readonly string[],
  defaults: ToolDefaults | undefined,
  depth: number,
): FieldHelp[] {
  const out: FieldHelp[] = [];
  for (const variant of options(schema)) {
    const properties = isRecord(variant.properties) ? variant.properties : {};
    const required = Array.isArray(variant.required) ? variant.required : [];
    for (const [key, property] of Object.entries(properties)) {
      if (!isRecord(property) || out.some((f) => f.name === `${prefix}${key}`)) continue;
      const name = `${prefix}${key}`;
      const description = typeof property.description === 'string' ? property.description : undefined;
      const allowed = allowedOf(property);
      const fallback = defaultOf(key, property, prefix === '' && !required.includes(key), defaults);
      out.push({
        name,
        type: typeOf(property),
        required: parentRequired && required.includes(key),
        ...optional('description', description),
        ...optional('allowed', allowed),
        ...optional('default', fallback),
        secret: secrets.includes(key),
      });
      const nested = options(property).find((o) => isRecord(o.properties));
      if (nested !== undefined && depth < 3) {
        out.push(
          ...fieldsOf(
            nested,
            `${name}.`,
            parentRequired && required.includes(key),
            secrets,
            defaults,
            depth + 1,
          ),
        );
      }
    }
  }
  return out;
}

const kindOf = (tool: AnyTool): string =>
  tool.hints.readOnly ? 'read' : tool.hints.destructive ? 'write, destructive' : 'write';

/** The help of a tool; `defaults` are the configuration's, to show what an omitted field becomes. */
export function toolHelp(tool: AnyTool, defaults?: ToolDefaults): ToolHelp {
  const fields = fieldsOf(inputJsonSchema(tool), '', true, tool.secretFields ?? [], defaults, 1);
  // A tool without a written example (added in a test) shows its required fields as placeholders.
  const example = toolExample(tool.name) ?? {
    input: Object.fromEntries(
      fields.filter((f) => f.required && !f.name.includes('.')).map((f) => [f.name, `<${f.name}>`]),
    ),
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    toolset: tool.toolset,
    kind: kindOf(tool),
    fields,
    example,
    placeholders: placeholders(example),
  };
}

/**
 * An input as `key=value` tokens, the inverse of `inputFromArgs`: nested objects as dotted keys,
 * lists as JSON. Front ends quote the tokens for their own syntax.
 */
export function argsOf(input: Readonly<Record<string, unknown>>, prefix = ''): string[] {
  return Object.entries(input).flatMap(([key, value]) => {
    if (isRecord(value)) return argsOf(value, `${prefix}${key}.`);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return [`${prefix}${key}=${text}`];
  });
}
