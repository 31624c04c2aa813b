import { readFileSync } from 'node:fs';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { inputJsonSchema, outputJsonSchema } from '../core/registry.js';
import type { AnyTool, ObjectSchema } from '../core/tool.js';
import { compactSchema } from './compact.js';
import { withoutFilledFields } from './listing.js';
import { shareRepeatedShapes } from './shared-defs.js';

export type JsonSchema = Record<string, unknown>;

/**
 * What an assistant receives for a write: the tool's output once it ran, or the approval it waits
 * for. MCP wants `structuredContent` matching the output schema on every non-error result, and a
 * write may end either way, so its schema is this envelope. Reads keep the tool's own output.
 * `approval` is described, not spelt out: it is what src/present makes of the approval (its fields
 * grow with it), and 33 copies of its fields would cost every assistant 10 KB of context.
 */
export function writeEnvelope(output: JsonSchema): JsonSchema {
  // Definitions stay at the root, where `#/$defs/…` points.
  const { $defs, ...result } = output;
  return {
    type: 'object',
    description: 'pending_approval: nothing has happened yet; follow approvalId with get_approval.',
    properties: {
      status: { enum: ['ok', 'pending_approval'] },
      result,
      approvalId: { type: 'string' },
      approval: { type: 'object' },
    },
    required: ['status'],
    ...($defs === undefined ? {} : { $defs }),
  };
}

/**
 * The argument every write takes over MCP besides its own: the executor's idempotency key, so an
 * assistant that retries after a lost answer gets the first result instead of acting twice.
 */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

export const idempotencyKeySchema = z.string().trim().min(1).max(128);

/**
 * The key as tools/list shows it: a string. The server's instructions say once what the key of
 * every write does (listing.ts); its bounds (1 to 128 characters) are checked on the call.
 */
const ADVERTISED_KEY: JsonSchema = { type: 'string' };

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

/**
 * The advertised JSON Schemas: the registry's, compacted, each shape a schema repeats written once
 * (shared-defs.ts); a write adds its key and wraps its output.
 */
function jsonSchemas(tool: AnyTool): { inputSchema: JsonSchema; outputSchema: JsonSchema } {
  const toolInput = withoutFilledFields(compactSchema(inputJsonSchema(tool), 'input') as JsonSchema);
  const output = compactSchema(outputJsonSchema(tool), 'output') as JsonSchema;
  if (tool.hints.readOnly)
    return { inputSchema: shareRepeatedShapes(toolInput), outputSchema: shareRepeatedShapes(output) };
  const inputSchema = {
    ...toolInput,
    properties: {
      ...(toolInput.properties as JsonSchema | undefined),
      [IDEMPOTENCY_ARGUMENT]: ADVERTISED_KEY,
    },
  };
  return {
    inputSchema: shareRepeatedShapes(inputSchema),
    outputSchema: shareRepeatedShapes(writeEnvelope(output)),
  };
}
