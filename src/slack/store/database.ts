/**
 * The one door of the Slack front end to the database: its own tables (answers, cards, seen events,
 * the outbox, deliveries, approval messages) are kept by the modules of this folder and
 * `approvals/store.ts`, and only they hold SQL. The rest of the front end passes the handle on.
 */
export { type Db, migrate } from '../../core/db.js';
