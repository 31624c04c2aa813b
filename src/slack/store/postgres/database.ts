/**
 * The one door of the Slack front end to PostgreSQL: its own tables (answers, seen events, the
 * outbox, deliveries, approval messages) are read and written only by the modules of this folder,
 * through the core's pool, statements and transactions. The tables are made by `bankops db migrate`.
 */
export { pgJson } from '../../../core/store/postgres/json.js';
export type { PgStore } from '../../../core/store/postgres/pool.js';
export { statement } from '../../../core/store/postgres/statement.js';
export { withTransaction } from '../../../core/store/postgres/transaction.js';
