/** `T` without `undefined` values; optional keys stay optional (for `exactOptionalPropertyTypes`). */
export type Defined<T> = { [K in keyof T]: Exclude<T[K], undefined> };

/** Drops keys whose value is `undefined`, so a partial update never blanks a stored field. */
export function defined<T extends object>(input: T): Defined<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Defined<T>;
}
