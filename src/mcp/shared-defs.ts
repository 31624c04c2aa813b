type JsonSchema = Record<string, unknown>;

/** Keys whose value maps names to schemas. */
const NAMED = new Set(['properties', 'patternProperties', '$defs']);
/** Keys whose value is a list of schemas. */
const LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keys whose value is one schema. */
const SINGLE = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames']);

const isRecord = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object shape, as compared: everything but the words about this one use of it. */
function shapeKey(node: JsonSchema): string | undefined {
  if (node.type !== 'object' || !isRecord(node.properties)) return undefined;
  const { description: _description, ...shape } = node;
  return JSON.stringify(shape);
}

interface Repeated {
  shape: JsonSchema;
  count: number;
  /** The property names it appears under, for a name when it has no title. */
  fields: string[];
}

/** Every schema below the root but the bodies of `$defs`, with the property name it sits under (if any). */
function forEachSubschema(node: JsonSchema, visit: (child: JsonSchema, field: string | undefined) => void) {
  for (const [key, value] of Object.entries(node)) {
    if (NAMED.has(key) && isRecord(value)) {
      for (const [field, child] of Object.entries(value)) {
        if (!isRecord(child)) continue;
        // A definition's body is not a use of its shape (and `replaceBelow` keeps it): counting it
        // would pick the same shape again and again.
        if (key !== '$defs') visit(child, key === 'properties' ? field : undefined);
        forEachSubschema(child, visit);
      }
    } else if (LISTS.has(key) && Array.isArray(value)) {
      for (const child of value.filter(isRecord)) {
        visit(child, undefined);
        forEachSubschema(child, visit);
      }
    } else if (SINGLE.has(key) && isRecord(value)) {
      visit(value, undefined);
      forEachSubschema(value, visit);
    }
  }
}

function repeatedShapes(root: JsonSchema): Map<string, Repeated> {
  const found = new Map<string, Repeated>();
  forEachSubschema(root, (child, field) => {
    const key = shapeKey(child);
    if (key === undefined) return;
    const { description: _description, ...shape } = child;
    const entry = found.get(key) ?? { shape, count: 0, fields: [] };
    entry.count += 1;
    if (field !== undefined) entry.fields.push(field);
    found.set(key, entry);
  });
  return found;
}

/** Its title (zod `.meta({title})`), else the field it appears under most often (the shortest of ties). */
function nameOf(entry: Repeated, taken: JsonSchema): string {
  const title = typeof entry.shape.title === 'string' ? entry.shape.title : undefined;
  const tally = new Map<string, number>();
  for (const field of entry.fields) tally.set(field, (tally.get(field) ?? 0) + 1);
  const [byField] = [...tally].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0] ?? ['shape'];
  const base = (title ?? byField).replace(/[^A-Za-z0-9_]/g, '_');
  const lower = base.charAt(0).toLowerCase() + base.slice(1);
  let name = lower;
  for (let n = 2; name in taken; n += 1) name = `${lower}${n}`;
  return name;
}

const bytes = (value: unknown): number => JSON.stringify(value).length;

/** Bytes saved by writing `entry` once under `$defs/name` and referring to it from each place. */
function saving(entry: Repeated, name: string, hasDefs: boolean): number {
  const size = bytes(entry.shape);
  const ref = bytes({ $ref: `#/$defs/${name}` });
  const def = bytes({ [name]: withoutTitle(entry.shape) }) - 1;
  return entry.count * (size - ref) - def - (hasDefs ? 0 : bytes({ $defs: {} }));
}

const withoutTitle = (shape: JsonSchema): JsonSchema => {
  const { title: _title, ...rest } = shape;
  return rest;
};

/**
 * `node` with every occurrence of the shape `key` below it replaced by `$ref`, keeping each one's
 * description. `node` itself and the bodies of `$defs` stay.
 */
function replaceBelow(node: JsonSchema, key: string, ref: string): JsonSchema {
  const swap = (child: unknown): unknown => {
    if (!isRecord(child)) return child;
    if (shapeKey(child) !== key) return replaceBelow(child, key, ref);
    return typeof child.description === 'string'
      ? { description: child.description, $ref: ref }
      : { $ref: ref };
  };
  const out: JsonSchema = {};
  for (const [k, value] of Object.entries(node)) {
    if (k === '$defs' && isRecord(value))
      out[k] = Object.fromEntries(
        Object.entries(value).map(([f, s]) => [f, isRecord(s) ? replaceBelow(s, key, ref) : s]),
      );
    else if (NAMED.has(k) && isRecord(value))
      out[k] = Object.fromEntries(Object.entries(value).map(([f, s]) => [f, swap(s)]));
    else if (LISTS.has(k) && Array.isArray(value)) out[k] = value.map(swap);
    else if (SINGLE.has(k)) out[k] = swap(value);
    else out[k] = value;
  }
  return out;
}

/**
 * The schema with each object shape it repeats (an amount with its currency, twenty times in an
 * approval) written once under `$defs` and referred to by `$ref` wherever that makes the schema
 * shorter; the description of each place stays beside its `$ref`. Deterministic: the same schema
 * gives the same result. The root is never replaced.
 */
export function shareRepeatedShapes(schema: JsonSchema): JsonSchema {
  let root = schema;
  for (;;) {
    const defs = isRecord(root.$defs) ? root.$defs : {};
    const hasDefs = isRecord(root.$defs);
    let best: { key: string; entry: Repeated; name: string; saved: number } | undefined;
    for (const [key, entry] of repeatedShapes(root)) {
      if (entry.count < 2) continue;
      const name = nameOf(entry, defs);
      const saved = saving(entry, name, hasDefs);
      if (saved > 0 && (best === undefined || saved > best.saved)) best = { key, entry, name, saved };
    }
    if (best === undefined) return root;
    const replaced = replaceBelow(root, best.key, `#/$defs/${best.name}`);
    const { $defs: _defs, ...rest } = replaced;
    const keptDefs = isRecord(replaced.$defs) ? replaced.$defs : {};
    root = { ...rest, $defs: { ...keptDefs, [best.name]: withoutTitle(best.entry.shape) } };
  }
}
