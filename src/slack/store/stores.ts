import type { ApprovalMessages } from '../approvals/store.js';
import type { AnswerRows } from './answers.js';
import type { ServiceDeliveries } from './deliveries.js';
import type { OutboxRows } from './outbox-rows.js';
import type { SeenEventRows } from './seen-events.js';

/**
 * What the Slack front end keeps in bankops's database, each behind its interface: the front end
 * sees these, never SQL. `sqlite/index.ts` makes them on the SQLite file, `postgres/index.ts` on
 * PostgreSQL.
 */
export interface SlackStores {
  answers: AnswerRows;
  seenEvents: SeenEventRows;
  outbox: OutboxRows;
  deliveries: ServiceDeliveries;
  approvalMessages: ApprovalMessages;
}
