import { closest } from '../core/unknown-fields.js';

/** Words every tool name shares, which say nothing about which tool was meant. */
const COMMON = new Set(['get', 'list', 'create', 'update', 'delete', 'a', 'b']);

const segments = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[_\s-]+/)
    .filter(Boolean);

/**
 * What a misspelt or partial name most likely meant: the name two edits away, else up to three names
 * sharing the most words with it (`balances` → `get_balances`, `get_card_b` → the family B card tools).
 */
export function suggestions(name: string, known: readonly string[]): string[] {
  const near = closest(name, known);
  if (near !== undefined) return [near];
  const words = segments(name).filter((w) => !COMMON.has(w));
  if (words.length === 0) return [];
  const typed = new Set(segments(name));
  const scored = known
    .map((candidate) => {
      const parts = segments(candidate);
      const content = parts.filter((p) =>
        words.some((w) => p === w || (w.length > 3 && p.startsWith(w))),
      ).length;
      const shared = parts.filter((p) => typed.has(p)).length;
      return { candidate, content, score: content * 2 + shared };
    })
    .filter((s) => s.content > 0)
    .sort((a, b) => b.score - a.score || a.candidate.length - b.candidate.length);
  const best = scored[0]?.score;
  return scored
    .filter((s) => s.score === best)
    .slice(0, 3)
    .map((s) => s.candidate);
}

/** `did you mean get_balances?` / `did you mean a, b or c?`, or '' when nothing is close. */
export function didYouMean(name: string, known: readonly string[]): string {
  const found = suggestions(name, known);
  if (found.length === 0) return '';
  const list = found.length === 1 ? found[0] : `${found.slice(0, -1).join(', ')} or ${found.at(-1)}`;
  return `did you mean ${list}?`;
}
