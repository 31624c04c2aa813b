import type { JsonColumns } from '../rows/json.js';

/**
 * PostgreSQL keeps JSON in `json` columns: given as text, checked by the server, handed back parsed
 * by the driver. `json`, not `jsonb`: `jsonb` reorders an object's keys, and an approval's input and
 * result are shown in the order they were given (schema/json-columns.ts).
 */
export const pgJson: JsonColumns = {
  read: (stored) => stored,
  write: (value) => JSON.stringify(value),
};
