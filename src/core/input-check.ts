import type { z } from 'zod';
import { issueWords } from './input-words.js';
import type { ExecuteResult, Failure, FieldError } from './results.js';
import type { AnyTool } from './tool.js';
import { unknownFields } from './unknown-fields.js';

const fieldErrors = (error: z.ZodError): FieldError[] =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));

export type InputCheck =
  | { ok: true; input: Record<string, unknown> }
  | { ok: false; message: string; errors: FieldError[]; unknown: string[] };

/**
 * The tool's input schema, plus what zod would let pass silently: a field the tool does not have
 * (a misspelt optional field must not vanish from a payout) is refused, naming the one meant.
 */
export function checkInput(tool: AnyTool, raw: unknown): InputCheck {
  const unknown = unknownFields(raw, Object.keys(tool.input.shape));
  // Parsed without the error map first: zod's fast path, a few times cheaper on every valid call.
  const valid = tool.input.safeParse(raw ?? {});
  if (valid.success && unknown.length === 0)
    return { ok: true, input: valid.data as Record<string, unknown> };
  const parsed = valid.success ? valid : tool.input.safeParse(raw ?? {}, { error: issueWords });
  const errors = [...unknown, ...(parsed.success ? [] : fieldErrors(parsed.error))];
  const message = `invalid input for ${tool.name}: ${errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`;
  return { ok: false, message, errors, unknown: unknown.map((e) => e.path) };
}

/**
 * A request the client refused before sending it (it breaks the service's schema, e.g. a
 * beneficiary's corridor schema) is the caller's to fix: report it as invalid input, field by field.
 */
export function invalidRequest(tool: string, error: Failure): ExecuteResult | undefined {
  if (error.kind !== 'invalid_request') return undefined;
  const errors = (error.issues ?? [error.message]).map((issue) => {
    const at = issue.indexOf(': ');
    return at > 0
      ? { path: issue.slice(0, at).replace(/^\//, '').replaceAll('/', '.'), message: issue.slice(at + 2) }
      : { path: '', message: issue };
  });
  return { status: 'invalid', tool, message: `invalid input for ${tool}: ${error.message}`, errors };
}

/** One refusal of the whole input, in the result shape. */
export const invalidResult = (tool: string, message: string): ExecuteResult => ({
  status: 'invalid',
  tool,
  message,
  errors: [{ path: '', message }],
});
