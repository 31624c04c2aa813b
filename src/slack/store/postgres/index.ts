import type { SlackStores } from '../stores.js';
import { postgresAnswers } from './answers.js';
import { postgresApprovalMessages } from './approval-messages.js';
import type { PgStore } from './database.js';
import { postgresDeliveries } from './deliveries.js';
import { postgresOutbox } from './outbox.js';
import { postgresSeenEvents } from './seen-events.js';

/** The Slack front end's stores on PostgreSQL; the tables are made by `bankops db migrate` (`migrate`). */
export function postgresSlackStores(store: PgStore): SlackStores {
  return {
    answers: postgresAnswers(store),
    seenEvents: postgresSeenEvents(store),
    outbox: postgresOutbox(store),
    deliveries: postgresDeliveries(store),
    approvalMessages: postgresApprovalMessages(store),
  };
}
