/**
 * `{ [key]: value }` when the value is defined, `{}` otherwise: spread into an object literal, an
 * absent value stays absent instead of becoming a key holding `undefined` (the strict
 * `exactOptionalPropertyTypes` tells the two apart, and so do JSON and the service).
 */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
