import { readFileSync } from 'node:fs';
import { ArgsError, inputFromArgs, type JsonSchema } from '../present/args.js';
import { parseJsonInput, UsageError } from './io.js';

/**
 * A tool's input from the command line: `key=value` arguments (dotted keys for nested fields, read
 * as the tool's schema says), and/or `--input` with JSON, `@file.json` or `-` (standard input).
 * Both together: the JSON first, then each `key=value` on top of it.
 */

function readJson(source: string, stdin: () => string): unknown {
  if (source === '-') return parseJsonInput(stdin(), '--input - (standard input)');
  if (source.startsWith('@')) {
    const path = source.slice(1);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : String(error);
      throw new UsageError(`--input ${source}: cannot read ${path} (${code})`);
    }
    return parseJsonInput(text, `--input ${source}`);
  }
  return parseJsonInput(source);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `over` laid on `base`: objects merged field by field, anything else replaced. */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? merge(current, value) : value;
  }
  return out;
}

export function readToolInput(
  json: string | undefined,
  tokens: readonly string[],
  schema: JsonSchema,
  stdin: () => string = () => readFileSync(0, 'utf8'),
): Record<string, unknown> {
  const base = json === undefined ? {} : (readJson(json, stdin) as Record<string, unknown>);
  let args: Record<string, unknown>;
  try {
    args = inputFromArgs(tokens, schema);
  } catch (error) {
    if (error instanceof ArgsError) throw new UsageError(`${error.message}; arguments are key=value`);
    throw error;
  }
  return merge(base, args);
}
