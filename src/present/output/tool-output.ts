import { optional } from '../../core/optional.js';
import { inputJsonSchema, outputJsonSchema } from '../../core/registry.js';
import type { AnyTool } from '../../core/tool.js';
import { documentOf, type PageInput } from './derive.js';
import type { OutputDocument } from './model.js';
import { isRecord, propertySchema } from './schema-walk.js';

const PAGE_FIELDS = ['pageNumber', 'page_num', 'page'];
const SIZE_FIELDS = ['pageSize', 'page_size', 'size'];

/** Which input field of the tool pages its list, and what this input asked for. */
export function pageInput(
  tool: AnyTool,
  input: Readonly<Record<string, unknown>> = {},
): PageInput | undefined {
  const schema = inputJsonSchema(tool);
  const field = PAGE_FIELDS.find((name) => propertySchema(schema, name) !== undefined);
  if (field === undefined) return undefined;
  const sizeField = SIZE_FIELDS.find((name) => propertySchema(schema, name) !== undefined);
  const page = input[field];
  const size = sizeField === undefined ? undefined : input[sizeField];
  return {
    field,
    page: typeof page === 'number' ? page : 1,
    ...(typeof size === 'number' ? { size } : {}),
  };
}

export interface ToolOutputOptions {
  /** The input the output answers (for paging hints). */
  input?: Readonly<Record<string, unknown>>;
  /** Caps for front ends with limits (Slack: 100 rows, 20 cells a row). */
  maxRows?: number;
  maxColumns?: number;
  /** Where fields a table leaves out are found (`--json shows them`). */
  fullResult?: string;
}

/** A tool's output as a document for people: the tool's title, then its data. */
export function toolOutputDocument(
  tool: AnyTool,
  output: unknown,
  options: ToolOutputOptions = {},
): OutputDocument {
  const value = isRecord(output) ? output : { result: output };
  const paging = pageInput(tool, options.input);
  return documentOf(value, outputJsonSchema(tool), {
    title: tool.title,
    secretFields: tool.secretFields ?? [],
    ...optional('paging', paging),
    ...optional('maxRows', options.maxRows),
    ...optional('maxColumns', options.maxColumns),
    ...optional('fullResult', options.fullResult),
  });
}
