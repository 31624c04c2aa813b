/**
 * How a backend keeps a JSON value in a column: SQLite as text, PostgreSQL in a `json` column that
 * the driver hands back parsed. The stores' codecs read and write every JSON column through it, so
 * nothing above a store sees JSON text.
 */
export interface JsonColumns {
  /** A stored JSON value (non-null) as the value it holds. */
  read(stored: unknown): unknown;
  /** A value as the JSON text its column is given. */
  write(value: unknown): string;
}

/** A nullable JSON column: SQL NULL for null. */
export const readNullable = (json: JsonColumns, stored: unknown): unknown =>
  stored === null || stored === undefined ? null : json.read(stored);

export const writeNullable = (json: JsonColumns, value: unknown): string | null =>
  value === null ? null : json.write(value);
