/** A JSON Schema node as `z.toJSONSchema` writes it, reduced to the keywords these helpers walk. */
interface SchemaNode {
  description?: unknown;
  properties?: Record<string, unknown>;
  items?: unknown;
  prefixItems?: unknown[];
  additionalProperties?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  allOf?: unknown[];
  $defs?: Record<string, unknown>;
}

/** One object property of a JSON Schema: its dotted path, its own name and its schema. */
export interface SchemaProperty {
  path: string;
  key: string;
  schema: unknown;
}

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every schema node at any depth, with the dotted path of the property it sits under: nested
 * objects, array elements, record values, the branches of a union or nullable (`anyOf`), and
 * shared definitions (`$defs`).
 */
function schemaNodes(schema: unknown, at = ''): { at: string; node: SchemaNode }[] {
  if (!isNode(schema)) return [];
  const properties = Object.entries(schema.properties ?? {}).flatMap(([key, property]) =>
    schemaNodes(property, `${at}${key}.`),
  );
  const alike = [
    schema.items,
    ...(schema.prefixItems ?? []),
    schema.additionalProperties,
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ].flatMap((inner) => schemaNodes(inner, at));
  const defs = Object.entries(schema.$defs ?? {}).flatMap(([name, def]) =>
    schemaNodes(def, `$defs.${name}.`),
  );
  return [{ at, node: schema }, ...properties, ...alike, ...defs];
}

/** Every object property of a JSON Schema, at any depth (see `schemaNodes`). */
export function schemaProperties(schema: unknown): SchemaProperty[] {
  return schemaNodes(schema).flatMap(({ at, node }) =>
    Object.entries(node.properties ?? {}).map(([key, property]) => ({
      path: `${at}${key}`,
      key,
      schema: property,
    })),
  );
}

/**
 * Paths (`''` for the top) of the objects that keep keys they do not declare (`z.looseObject`,
 * `z.record`). Meaningful for output schemas: for input, zod leaves `additionalProperties` out.
 */
export function openObjects(schema: unknown): string[] {
  return schemaNodes(schema)
    .filter(({ node }) => node.additionalProperties !== undefined && node.additionalProperties !== false)
    .map(({ at }) => at);
}

/** Paths of object properties (at any depth) whose JSON Schema carries no description. */
export function undescribed(schema: unknown): string[] {
  return schemaProperties(schema)
    .filter(
      ({ schema: property }) =>
        !isNode(property) || typeof property.description !== 'string' || property.description.trim() === '',
    )
    .map(({ path }) => path);
}
