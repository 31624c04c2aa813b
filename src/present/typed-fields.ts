import { checkInput } from '../core/input-check.js';
import type { FieldError } from '../core/results.js';
import type { AnyTool } from '../core/tool.js';

/**
 * The problems of the fields that were given, leaving out those still missing: what a front end
 * can say at once, before it opens a form for the rest.
 */
export function typedFieldErrors(tool: AnyTool, raw: Record<string, unknown>): FieldError[] {
  const check = checkInput(tool, raw);
  if (check.ok) return [];
  return check.errors.filter((e) => {
    const top = e.path.split('.')[0] ?? '';
    return e.message !== 'required' && (top === '' || Object.hasOwn(raw, top));
  });
}
