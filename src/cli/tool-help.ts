import type { AnyTool, ToolDefaults } from '../core/tool.js';
import { argsOf, type FieldHelp, toolHelp } from '../present/tool-help.js';

/** `bankops help <tool>` and `bankops call <tool> --help`: the registry's help, worded for a shell. */

/** A token as a POSIX shell would need it typed: quoted when it holds anything but safe characters. */
const shellQuote = (token: string): string =>
  /^[A-Za-z0-9_@%+=:,./-]+$/.test(token) ? token : `'${token.replaceAll("'", `'\\''`)}'`;

function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(`${indent}${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines.join('\n');
}

/** A command as a shell takes it across lines: tokens kept whole, ` \\` before each break. */
function wrapCommand(tokens: readonly string[], width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line !== '' && indent.length + line.length + 1 + token.length + 2 > width) {
      lines.push(`${indent}${line} \\`);
      line = `  ${token}`;
    } else line = line === '' ? token : `${line} ${token}`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines.join('\n');
}

function fieldLine(field: FieldHelp, width: number): string {
  const type = field.allowed === undefined ? field.type : field.allowed.join(' | ');
  const facts = [type, field.required ? 'required' : 'optional'];
  if (field.default !== undefined) {
    const from = field.default.from === 'schema' ? '' : ` (${field.default.from})`;
    facts.push(`default ${field.default.text}${from}`);
  }
  if (field.secret) facts.push('secret');
  // The name and its first facts on one line (`  purposeCode  AUDIO_VISUAL_SERVICES | …`), the rest below.
  const lines: string[] = [];
  let current = `  ${field.name} `;
  let fresh = true;
  for (const word of facts.join(', ').split(' ')) {
    if (!fresh && current.length + 1 + word.length > width) {
      lines.push(current);
      current = `      ${word}`;
    } else current = `${current} ${word}`;
    fresh = false;
  }
  return [...lines, current].join('\n');
}

export function renderToolHelp(tool: AnyTool, defaults: ToolDefaults | undefined, width = 100): string {
  const help = toolHelp(tool, defaults);
  const example = wrapCommand(
    ['bankops', 'call', help.name, ...argsOf(help.example.input).map(shellQuote)],
    width,
    '  ',
  );
  const fields =
    help.fields.length === 0
      ? ['  (none)']
      : help.fields.flatMap((f) => [
          fieldLine(f, width),
          ...(f.description === undefined ? [] : [wrap(f.description, width, '      ')]),
        ]);
  const waits =
    help.placeholders.length === 0
      ? 'Example (works on the embedded sandbox):'
      : `Example (replace ${help.placeholders.join(', ')} with the id a previous call returned):`;
  return [
    `Usage: bankops call ${help.name} [key=value ...]`,
    '         [--input <json> | @file.json | -] [--as <name>] [--json]',
    '',
    `${help.name}: ${help.title} (toolset ${help.toolset}, ${help.kind})`,
    '',
    wrap(help.description, width, ''),
    '',
    'Fields (key=value; dotted keys for nested fields, JSON for lists and objects):',
    ...fields,
    '',
    waits,
    example,
    ...(help.example.note === undefined ? [] : [wrap(help.example.note, width, '  ')]),
    '',
    'The same input as JSON: --input \'{"field": "value"}\', --input @file.json, or --input - (stdin).',
    'Exit status: 0 ok or pending_approval, 1 failed, 2 invalid input, 3 denied.',
    '',
  ].join('\n');
}
