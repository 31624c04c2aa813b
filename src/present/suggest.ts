import { meant } from '../core/meant.js';

/**
 * `did you mean get_balances?` / `did you mean a, b or c?`, or '' when nothing is close: the names
 * `meant` finds (src/core/meant.ts: a typo away, or sharing the words typed, in any order).
 */
export function didYouMean(name: string, known: readonly string[]): string {
  const found = meant(name, known);
  if (found.length === 0) return '';
  const list = found.length === 1 ? found[0] : `${found.slice(0, -1).join(', ')} or ${found.at(-1)}`;
  return `did you mean ${list}?`;
}
