import { parseArgs } from 'node:util';
import { optional } from '../../core/optional.js';
import { inputJsonSchema } from '../../core/registry.js';
import { TOOLSETS, type Toolset } from '../../core/toolset.js';
import { createRegistry } from '../../tools/index.js';
import { out, printJson, table, UsageError } from '../io.js';

export const TOOLS_HELP = `Usage: bankops tools [--toolsets <a,b>] [--read-only] [--json]

Lists the tools: one per operation of the service.

Options:
  --toolsets <list>  only these toolsets (${TOOLSETS.join(', ')});
                     --toolset works too
  --read-only        only tools that change nothing
  --json             an array with name, title, toolset, hints and the input JSON Schema
`;

export function parseToolsets(value: string | undefined): Toolset[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`name at least one toolset: ${TOOLSETS.join(', ')}`);
  const unknown = names.filter((n) => !(TOOLSETS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new UsageError(`unknown toolset ${unknown.join(', ')}; toolsets are ${TOOLSETS.join(', ')}`);
  }
  return names as Toolset[];
}

export function toolsCommand(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: {
      toolsets: { type: 'string' },
      toolset: { type: 'string' },
      'read-only': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out(TOOLS_HELP);
    return 0;
  }
  const toolsets = parseToolsets(values.toolsets ?? values.toolset);
  const tools = createRegistry().list({
    ...optional('toolsets', toolsets),
    ...(values['read-only'] ? { readOnly: true } : {}),
  });
  if (values.json) {
    printJson(
      tools.map((tool) => ({
        name: tool.name,
        title: tool.title,
        toolset: tool.toolset,
        description: tool.description,
        hints: tool.hints,
        inputSchema: inputJsonSchema(tool),
      })),
    );
    return 0;
  }
  const hint = (t: (typeof tools)[number]): string =>
    t.hints.readOnly ? 'read' : t.hints.destructive ? 'write, destructive' : 'write';
  out(
    `${table(
      ['NAME', 'TOOLSET', 'KIND', 'TITLE'],
      tools.map((t) => [t.name, t.toolset, hint(t), t.title]),
    )}\n\n${tools.length} tools\n`,
  );
  return 0;
}
