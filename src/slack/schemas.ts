import { inputJsonSchema } from '../core/registry.js';
import type { AnyTool } from '../core/tool.js';
import type { JsonSchema } from '../present/args.js';
import { type FormField, formFields } from './render/form-fields.js';

const schemas = new WeakMap<AnyTool, JsonSchema>();
const fields = new WeakMap<AnyTool, FormField[]>();

/**
 * A tool's input JSON Schema, converted from zod once per process: every command reads it (the
 * grammar, the required fields), and converting it again each time would slow every answer.
 */
export function toolSchema(tool: AnyTool): JsonSchema {
  let schema = schemas.get(tool);
  if (schema === undefined) {
    schema = inputJsonSchema(tool);
    schemas.set(tool, schema);
  }
  return schema;
}

/** The form fields of a tool's input, computed once. */
export function toolFields(tool: AnyTool): readonly FormField[] {
  let list = fields.get(tool);
  if (list === undefined) {
    list = formFields(toolSchema(tool));
    fields.set(tool, list);
  }
  return list;
}
