import type { FieldError } from './results.js';

/**
 * Top-level fields of an input that the tool's schema does not have. The schema would drop them
 * silently, so a misspelt optional field (`accountid`) would be ignored and the call run without
 * it; the executor refuses them instead, naming the field meant when one is close.
 */
export function unknownFields(input: unknown, known: readonly string[]): FieldError[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  return Object.keys(input)
    .filter((field) => !known.includes(field))
    .map((field) => {
      const meant = closest(field, known);
      return {
        path: field,
        message:
          meant === undefined
            ? `unknown field; the fields are ${known.join(', ')}`
            : `unknown field; did you mean ${meant}?`,
      };
    });
}

const loose = (name: string): string => name.toLowerCase().replace(/[_-]/g, '');

/**
 * The known name the given one most likely meant: the same but for case and `_`/`-`, or 2 edits away
 * (front ends use it for misspelt tools and commands too).
 */
export function closest(name: string, known: readonly string[]): string | undefined {
  const same = known.find((candidate) => loose(candidate) === loose(name));
  if (same !== undefined) return same;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(loose(name), loose(candidate));
    if (distance <= 2 && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
