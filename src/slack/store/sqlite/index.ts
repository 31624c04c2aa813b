import type { SlackStores } from '../stores.js';
import { sqliteAnswers } from './answers.js';
import { sqliteApprovalMessages } from './approval-messages.js';
import { type Db, migrateSlack } from './database.js';
import { sqliteDeliveries } from './deliveries.js';
import { sqliteOutbox } from './outbox.js';
import { sqliteSeenEvents } from './seen-events.js';

/** The Slack front end's stores on the SQLite database, its tables made first if missing. */
export function sqliteSlackStores(db: Db): SlackStores {
  migrateSlack(db);
  return {
    answers: sqliteAnswers(db),
    seenEvents: sqliteSeenEvents(db),
    outbox: sqliteOutbox(db),
    deliveries: sqliteDeliveries(db),
    approvalMessages: sqliteApprovalMessages(db),
  };
}
