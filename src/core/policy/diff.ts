import { canonicalJson } from '../canonical-json.js';

/**
 * A structural diff of two parsed policies, over the document as a whole: nothing here names a
 * field, so a field added to the schema later is compared like the others (src/present/policy-diff.ts
 * puts the changes in words). Arrays of objects are matched by identity: an item's `name`, else its
 * `match` (actors), else its position; arrays of plain values are compared as sets.
 */
export type PolicyDiffChange =
  | { kind: 'added'; path: readonly string[]; after: unknown }
  | { kind: 'removed'; path: readonly string[]; before: unknown }
  | { kind: 'changed'; path: readonly string[]; before: unknown; after: unknown }
  /** A set of plain values (roles, tools) that gained or lost members. */
  | { kind: 'members'; path: readonly string[]; added: readonly unknown[]; removed: readonly unknown[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const same = (a: unknown, b: unknown): boolean =>
  a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b);

/** The identity of an array item, as a path segment: `name`, `key=value` of its match, or `[i]`. */
export function itemKey(item: unknown, index: number): string {
  if (isRecord(item)) {
    if (typeof item.name === 'string') return item.name;
    if (isRecord(item.match)) {
      const [field, value] = Object.entries(item.match)[0] ?? [];
      if (field !== undefined) return `${field}=${String(value)}`;
    }
  }
  return `[${index}]`;
}

function keyed(items: readonly unknown[]): Map<string, unknown> {
  const map = new Map<string, unknown>();
  items.forEach((item, index) => {
    let key = itemKey(item, index);
    // Two entries for one identity (allowed for actors): the second keeps its position apart.
    if (map.has(key)) key = `${key}[${index}]`;
    map.set(key, item);
  });
  return map;
}

function diffArrays(path: string[], before: unknown[], after: unknown[], out: PolicyDiffChange[]): void {
  if ([...before, ...after].every((item) => !isRecord(item) && !Array.isArray(item))) {
    const added = after.filter((a) => !before.some((b) => same(a, b)));
    const removed = before.filter((b) => !after.some((a) => same(a, b)));
    if (added.length > 0 || removed.length > 0) out.push({ kind: 'members', path, added, removed });
    return;
  }
  const was = keyed(before);
  const now = keyed(after);
  for (const [key, item] of was)
    if (!now.has(key)) out.push({ kind: 'removed', path: [...path, key], before: item });
  for (const [key, item] of now) {
    if (!was.has(key)) out.push({ kind: 'added', path: [...path, key], after: item });
    else walk([...path, key], was.get(key), item, out);
  }
}

function walk(path: string[], before: unknown, after: unknown, out: PolicyDiffChange[]): void {
  if (same(before, after)) return;
  if (before === undefined) {
    out.push({ kind: 'added', path, after });
    return;
  }
  if (after === undefined) {
    out.push({ kind: 'removed', path, before });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    diffArrays(path, before, after, out);
    return;
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const key of keys) walk([...path, key], before[key], after[key], out);
    return;
  }
  out.push({ kind: 'changed', path, before, after });
}

/** What changed from `before` to `after`, in document order. */
export function diffPolicies(before: unknown, after: unknown): PolicyDiffChange[] {
  const out: PolicyDiffChange[] = [];
  walk([], before, after, out);
  return out;
}
