/**
 * The one door of the Slack front end to the SQLite database: its own tables (answers, seen events,
 * the outbox, deliveries, approval messages) are read and written only by the modules of this
 * folder. The rest of the front end sees the interfaces of `../stores.ts`.
 */
export { type Db, migrate } from '../../../core/store/sqlite/database.js';
export { underFileLock } from '../../../core/store/sqlite/file-lock.js';
export { sqliteJson } from '../../../core/store/sqlite/json.js';
export { migrateSlack } from '../../../core/store/sqlite/slack-schema.js';
