/** Reading a tool's output JSON Schema alongside its value: field order, and the schema of a part. */

export type JsonSchema = Readonly<Record<string, unknown>>;

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema node itself and its `anyOf`/`oneOf`/`allOf` options (nullable and optional fields). */
function variants(schema: JsonSchema | undefined): JsonSchema[] {
  if (schema === undefined) return [];
  const out: JsonSchema[] = [schema];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options))
      for (const option of options) if (isRecord(option)) out.push(...variants(option));
  }
  return out;
}

/** Property names the schema declares, in its order. */
function declared(schema: JsonSchema | undefined): string[] {
  const names: string[] = [];
  for (const variant of variants(schema)) {
    const properties = variant.properties;
    if (isRecord(properties))
      for (const name of Object.keys(properties)) if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The keys to show for these objects: the schema's order first, then any extra the values carry. */
export function keysOf(
  schema: JsonSchema | undefined,
  values: readonly Readonly<Record<string, unknown>>[],
): string[] {
  const keys = declared(schema).filter((key) => values.some((value) => Object.hasOwn(value, key)));
  for (const value of values) for (const key of Object.keys(value)) if (!keys.includes(key)) keys.push(key);
  return keys;
}

/** The schema of property `key`, if declared. */
export function propertySchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  for (const variant of variants(schema)) {
    const properties = variant.properties;
    if (isRecord(properties) && Object.hasOwn(properties, key)) {
      const property = properties[key];
      return isRecord(property) ? property : undefined;
    }
  }
  return undefined;
}

/** The schema of an array's items, if declared. */
export function itemSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  for (const variant of variants(schema)) if (isRecord(variant.items)) return variant.items;
  return undefined;
}
