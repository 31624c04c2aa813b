import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { messageOf } from '../errors.js';
import { issueWords } from '../input-words.js';
import { PolicyError } from './errors.js';
import { prebuiltDecoding } from './prebuilt.js';
import { type Policy, PolicySchema } from './schema.js';

/** `rules[2].approval.approvers`; the root is called `(policy)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? '(policy)' : out;
}

/** One line per problem; an unknown key is reported at its own path so the line says which key. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `${formatPath([...issue.path, key])}: unknown key`)
      : [`${formatPath(issue.path)}: ${issue.message}`],
  );
}

/** Validates an already-decoded policy document. */
export function parsePolicyValue(value: unknown, source: string): Policy {
  const result = PolicySchema.safeParse(value, { error: issueWords });
  if (!result.success) throw new PolicyError(source, formatIssues(result.error.issues));
  return result.data;
}

/** Decodes policy text: JSON for `.json` sources, YAML otherwise (duplicate keys refused in both). */
export function decodePolicyText(text: string, source: string): unknown {
  try {
    // YAML 1.2 reads JSON too, and unlike JSON.parse it refuses duplicate keys.
    return parseYaml(text, { uniqueKeys: true, prettyErrors: true });
  } catch (error) {
    const kind = extname(source).toLowerCase() === '.json' ? 'JSON' : 'YAML';
    // The first line holds the problem and its position; the rest is an excerpt of the file.
    const detail = (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)).replace(
      /:$/,
      '',
    );
    throw new PolicyError(source, [`not valid ${kind}: ${detail}`], { cause: error });
  }
}

/** Decodes (the build's decoding of the shipped policy when it is unchanged) and validates policy text. */
export function parsePolicyText(text: string, source: string): Policy {
  const value = prebuiltDecoding(text, source) ?? decodePolicyText(text, source);
  if (value === null || value === undefined) throw new PolicyError(source, ['the file is empty']);
  return parsePolicyValue(value, source);
}

/** The file's text; a missing or unreadable file is a `PolicyError` like any other problem. */
export function readPolicyText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const detail = messageOf(error);
    throw new PolicyError(path, [`cannot read the file: ${detail}`], { cause: error });
  }
}

/** Reads and validates a policy file (for `bankops policy check` and start-up). */
export function readPolicyFile(path: string): Policy {
  return parsePolicyText(readPolicyText(path), path);
}
