/**
 * `{ [key]: value }` when the value is defined, `{}` otherwise, to spread into an object literal.
 * The sandbox's own (it shares no code with bankops, so the two cannot share a mistake).
 */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
