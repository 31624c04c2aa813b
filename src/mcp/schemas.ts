import { readFileSync } from 'node:fs';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { inputJsonSchema, outputJsonSchema } from '../core/registry.js';
import type { AnyTool, ObjectSchema } from '../core/tool.js';

export type JsonSchema = Record<string, unknown>;

/**
 * What an assistant receives for a write: the tool's output once it ran, or the approval it waits
 * for. MCP wants `structuredContent` matching the output schema on every non-error result, and a
 * write may end either way, so its schema is this envelope. Reads keep the tool's own output.
 * `approval` is described, not spelt out: it is what src/present makes of the approval (its fields
 * grow with it), and 33 copies of its fields would cost every assistant 10 KB of context.
 */
export function writeEnvelope(output: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description:
      'ok: result is the output. pending_approval: nothing has happened yet; people must approve approvalId (follow it with get_approval); approval says what waits, for whom, until when and what happens next.',
    properties: {
      status: { type: 'string', enum: ['ok', 'pending_approval'] },
      result: output,
      approvalId: { type: 'string' },
      approval: { type: 'object' },
    },
    required: ['status'],
  };
}

/**
 * The argument every write takes over MCP besides its own: the executor's idempotency key, so an
 * assistant that retries after a lost answer gets the first result instead of acting twice.
 */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

export const idempotencyKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .describe('Retry key: a retry with it returns the first result, never acts twice.');

/**
 * What the SDK checks a tool's arguments with before the callback: only the idempotency key of a
 * write, everything else passing through. The executor validates the tool's input itself, so every
 * refusal is audited and says what to fix in one format: `required`, an unknown argument with the
 * one meant (the SDK would drop it silently: a misspelt optional field must not vanish from a
 * payout), the tool's own rules. tools/list still advertises the tool's full schema (schemas.ts).
 */
export function mcpInputSchema(tool: AnyTool): ObjectSchema {
  return tool.hints.readOnly
    ? z.looseObject({})
    : z.looseObject({ [IDEMPOTENCY_ARGUMENT]: idempotencyKeySchema.optional() });
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Drops what says nothing to an assistant and costs context on every tools/list, keeping every
 * description, enum, pattern and `required` that does:
 * - `$schema` (MCP's default dialect is 2020-12, which the registry writes);
 * - `additionalProperties: {}` and `propertyNames: {type: string}` (what JSON allows anyway), and in
 *   outputs `additionalProperties: false` (an assistant reads outputs, it does not write them);
 * - zod's safe-integer bounds on `.int()` and `minLength: 1` (an empty string is no value anywhere
 *   here; the executor still enforces both);
 * - a description that only lists the values of its own `enum` (the enum says it once), and
 *   `type: string` beside an enum of strings, or a `pattern` beside `format: email` (zod writes
 *   both; the enum and the format say it).
 */
export function compactSchema(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => compactSchema(item, io));
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  const record = node as JsonSchema;
  for (const [key, value] of Object.entries(record)) {
    if (key === '$schema') continue;
    if (key === 'maximum' && value === MAX_SAFE) continue;
    if (key === 'minimum' && value === -MAX_SAFE) continue;
    if (key === 'minLength' && value === 1) continue;
    if (key === 'additionalProperties' && isEmptyObject(value)) continue;
    if (key === 'additionalProperties' && value === false && io === 'output') continue;
    if (key === 'propertyNames' && isStringOnly(value)) continue;
    if (key === 'description' && restatesEnum(value, record.enum)) continue;
    if (key === 'type' && value === 'string' && isStringEnum(record.enum)) continue;
    if (key === 'pattern' && record.format === 'email') continue;
    // Under these the keys are names (a field may be called `maximum`), not keywords.
    out[key] = NAMED.has(key) ? compactNamed(value, io) : compactSchema(value, io);
  }
  return out;
}

const NAMED = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

function compactNamed(value: unknown, io: 'input' | 'output'): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([field, schema]) => [field, compactSchema(schema, io)]),
  );
}

/** "DAY, WEEK or MONTH." next to `enum: [DAY, WEEK, MONTH]` says nothing the enum does not. */
function restatesEnum(description: unknown, values: unknown): boolean {
  if (typeof description !== 'string' || !Array.isArray(values)) return false;
  const words = description
    .replace(/[.,;:]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && word !== 'or' && word !== 'and');
  return words.length > 0 && words.every((word) => values.includes(word));
}

const isStringEnum = (values: unknown): boolean =>
  Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === 'string');

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

const isStringOnly = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 1 &&
  (value as { type?: unknown }).type === 'string';

/** What MCP sees of a tool: the schemas registered with the SDK, and the JSON Schemas they advertise. */
export interface McpToolSchemas {
  /** Checks a write's idempotency key only (see `mcpInputSchema`); advertises `inputSchema`. */
  input: StandardSchemaWithJSON<Record<string, unknown>>;
  /** Advertises `outputSchema`; `structuredContent` is checked where it is made (results.ts). */
  output: StandardSchemaWithJSON<Record<string, unknown>>;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

type Validate = StandardSchemaWithJSON<Record<string, unknown>>['~standard']['validate'];

/**
 * A Standard Schema the SDK takes as a tool's schema: it lists `json` as it is (so tools/list shows
 * exactly the registry's compact 2020-12 schemas, converted once per process or by the build) and
 * validates with `validate`.
 */
function advertised(json: JsonSchema, validate: Validate): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'bankops',
      validate,
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/**
 * `structuredContent` is made by `toCallToolResult` from a parse with the tool's own output schema
 * (the approval summary is typed by its schema), so the SDK need not parse it a second time.
 */
const alreadyChecked: Validate = (value) => ({ value: value as Record<string, unknown> });

/** Per tool, computed once per process: HTTP opens a server per session, all listing the same tools. */
const computed = new WeakMap<AnyTool, McpToolSchemas>();

/** The file `npm run build` writes next to the stdio bundle: every tool's advertised JSON Schemas. */
export const PREBUILT_SCHEMAS_FILE = 'tool-schemas.json';

type Prebuilt = Record<string, { inputSchema: JsonSchema; outputSchema: JsonSchema }>;
let prebuilt: Prebuilt | undefined | null = null;

/**
 * Converting 66 tools' zod schemas to JSON Schema costs ~100 ms of every start; the build does it
 * once (scripts/bundle-mcp.mjs, from the same sources in the same build). Bundled code may sit in
 * the bundle's folder or in its chunks/ folder, so both are tried; absent (tsc output, tests), the
 * schemas are computed.
 */
function prebuiltSchemas(): Prebuilt | undefined {
  if (prebuilt !== null) return prebuilt;
  prebuilt = undefined;
  for (const relative of [`./${PREBUILT_SCHEMAS_FILE}`, `../${PREBUILT_SCHEMAS_FILE}`]) {
    try {
      prebuilt = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Prebuilt;
      break;
    } catch {
      // not there: try the next place, else compute
    }
  }
  return prebuilt;
}

/**
 * tools/list advertises the registry's JSON Schemas (those `bankops tools --json` prints),
 * compacted; for a write, the envelope around the tool's output.
 */
export function mcpSchemas(tool: AnyTool): McpToolSchemas {
  let schemas = computed.get(tool);
  if (schemas === undefined) {
    schemas = computeSchemas(tool);
    computed.set(tool, schemas);
  }
  return schemas;
}

function computeSchemas(tool: AnyTool): McpToolSchemas {
  const json = prebuiltSchemas()?.[tool.name] ?? jsonSchemas(tool);
  const checkInput = mcpInputSchema(tool)['~standard'].validate as Validate;
  return {
    input: advertised(json.inputSchema, checkInput),
    output: advertised(json.outputSchema, alreadyChecked),
    ...json,
  };
}

/** The advertised JSON Schemas: the registry's, compacted; a write adds its key and wraps its output. */
function jsonSchemas(tool: AnyTool): { inputSchema: JsonSchema; outputSchema: JsonSchema } {
  const toolInput = compactSchema(inputJsonSchema(tool), 'input') as JsonSchema;
  if (tool.hints.readOnly)
    return {
      inputSchema: toolInput,
      outputSchema: compactSchema(outputJsonSchema(tool), 'output') as JsonSchema,
    };
  const key = compactSchema(z.toJSONSchema(idempotencyKeySchema, { io: 'input' }), 'input') as JsonSchema;
  const inputSchema = {
    ...toolInput,
    properties: { ...(toolInput.properties as JsonSchema | undefined), [IDEMPOTENCY_ARGUMENT]: key },
  };
  const output = compactSchema(outputJsonSchema(tool), 'output') as JsonSchema;
  return { inputSchema, outputSchema: writeEnvelope(output) };
}
