import type { JsonColumns } from '../rows/json.js';

/** SQLite keeps JSON as text: the one place its stores parse it. */
export const sqliteJson: JsonColumns = {
  read: (stored) => JSON.parse(stored as string),
  write: (value) => JSON.stringify(value),
};
