import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { optional } from '../core/optional.js';
import { inputJsonSchema, outputJsonSchema } from '../core/registry.js';
import type { AnyTool, ObjectSchema } from '../core/tool.js';
import { compactSchema } from './compact.js';
import { withoutFilledFields } from './said-once.js';
import { shareRepeatedShapes } from './shared-defs.js';

export type JsonSchema = Record<string, unknown>;

/**
 * What an assistant receives for a write: the tool's output once it ran, or the approval it waits
 * for. MCP wants `structuredContent` matching the output schema on every non-error result, and a
 * write may end either way, so its schema is this envelope. Reads keep the tool's own output.
 * `approval` is described, not spelt out: it is what src/present makes of the approval (its fields
 * grow with it), and 33 copies of its fields would cost every assistant 10 KB of context.
 */
function writeEnvelope(output: JsonSchema): JsonSchema {
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
    ...optional('$defs', $defs),
  };
}

/**
 * The argument every write takes over MCP besides its own: the executor's idempotency key, so an
 * assistant that retries after a lost answer gets the first result instead of acting twice.
 */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

const idempotencyKeySchema = z.string().trim().min(1).max(128);

/**
 * The key as tools/list shows it: a string. The server's instructions say once what the key of
 * every write does (said-once.ts); its bounds (1 to 128 characters) are checked on the call.
 */
const ADVERTISED_KEY: JsonSchema = { type: 'string' };

/**
 * What the SDK checks a tool's arguments with before the callback: only the idempotency key of a
 * write, everything else passing through. The executor validates the tool's input itself, so every
 * refusal is audited and says what to fix in one format: `required`, an unknown argument with the
 * one meant (the SDK would drop it silently: a misspelt optional field must not vanish from a
 * payout), the tool's own rules. tools/list still advertises the tool's full schema.
 */
const READ_ARGUMENTS = z.looseObject({});
const WRITE_ARGUMENTS = z.looseObject({ [IDEMPOTENCY_ARGUMENT]: idempotencyKeySchema.optional() });

const mcpInputSchema = (readOnly: boolean): ObjectSchema => (readOnly ? READ_ARGUMENTS : WRITE_ARGUMENTS);

/** What tools/list advertises of a tool: its input and output JSON Schemas. */
export interface AdvertisedSchemas {
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

/** The schemas registered with the SDK for one tool. */
export interface SdkSchemas {
  /** Checks a write's idempotency key only (see `mcpInputSchema`); advertises `inputSchema`. */
  input: StandardSchemaWithJSON<Record<string, unknown>>;
  /** Advertises `outputSchema`; `structuredContent` is checked where it is made (results.ts). */
  output: StandardSchemaWithJSON<Record<string, unknown>>;
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

/** The SDK's view of advertised schemas: the JSON as it is, the arguments checked as above. */
export function sdkSchemas(schemas: AdvertisedSchemas, readOnly: boolean): SdkSchemas {
  const checkArguments = mcpInputSchema(readOnly)['~standard'].validate as Validate;
  return {
    input: advertised(schemas.inputSchema, checkArguments),
    output: advertised(schemas.outputSchema, alreadyChecked),
  };
}

/** Per tool, computed once per process: HTTP opens a server per request, all listing the same tools. */
const computed = new WeakMap<AnyTool, AdvertisedSchemas>();

/**
 * tools/list advertises the registry's JSON Schemas (those `bankops tools --json` prints),
 * compacted, each shape a schema repeats written once (shared-defs.ts); a write adds its key and
 * wraps its output in the envelope. Converting 66 tools costs ~100 ms: the stdio bundle reads the
 * build's result instead (listing.ts).
 */
export function mcpSchemas(tool: AnyTool): AdvertisedSchemas {
  let schemas = computed.get(tool);
  if (schemas === undefined) {
    schemas = jsonSchemas(tool);
    computed.set(tool, schemas);
  }
  return schemas;
}

function jsonSchemas(tool: AnyTool): AdvertisedSchemas {
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
