import { type Db, migrate } from './database.js';

/**
 * The tables of the Slack front end in the SQLite file (their statements are Slack's own, in
 * src/slack/store/sqlite/; PostgreSQL's tables are in ../postgres/schema/slack.ts).
 *
 * What the Slack front end keeps, in bankops's database so that every replica of `bankops serve`
 * shares it and a restart loses nothing (DESIGN decision 12). No secret is stored: webhook keys only
 * as SHA-256 digests, and results that carry a secret are never kept for sharing.
 */
const SLACK_001 = [
  // Events API deliveries already handled: Slack retries (X-Slack-Retry-Num) are acknowledged only.
  `CREATE TABLE IF NOT EXISTS slack_seen_events (
     event_id TEXT PRIMARY KEY,
     seen_at INTEGER NOT NULL
   ) STRICT`,
  // Rendered answers kept briefly for "Share" and "More" (pages not yet shown).
  `CREATE TABLE IF NOT EXISTS slack_pages (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     tool TEXT NOT NULL,
     pages_json TEXT NOT NULL,
     shareable INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   ) STRICT`,
  // (slack_cards, once here, is src/core/cards.ts's `cards`: every front end's answers fill it.)
  // (service_webhook_keys, once here, is src/core/webhooks.ts's: the event-relay tool keeps the keys.)
  // Service deliveries already received, by event id: a repeat is answered 200 and posts nothing.
  `CREATE TABLE IF NOT EXISTS service_deliveries (
     event_id TEXT NOT NULL,
     event_name TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     PRIMARY KEY (event_id, event_name)
   ) STRICT`,
  // Messages to post, in order, retried until Slack takes them: a crash or a Slack outage loses none.
  `CREATE TABLE IF NOT EXISTS slack_outbox (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     dedupe_key TEXT UNIQUE,
     method TEXT NOT NULL,
     args_json TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_at INTEGER NOT NULL,
     lease_until INTEGER NOT NULL DEFAULT 0,
     done_at INTEGER,
     error TEXT
   ) STRICT`,
  'CREATE INDEX IF NOT EXISTS slack_outbox_pending ON slack_outbox (done_at, next_at, id)',
];

/** Which approval has which message (channel and `ts`), and what it shows. */
const APPROVALS_001 = [
  `CREATE TABLE IF NOT EXISTS slack_approval_messages (
     approval_id TEXT PRIMARY KEY,
     channel TEXT NOT NULL,
     -- NULL while one process is posting it (until claimed_until); then the message's ts.
     ts TEXT,
     claimed_until INTEGER NOT NULL,
     posted_at INTEGER,
     -- SHA-256 of the last content sent, so an event that changes nothing shown sends no update.
     rendered TEXT
   ) STRICT`,
];

export function migrateSlack(db: Db): void {
  migrate(db, 'slack/001-front-end', SLACK_001);
  migrate(db, 'slack/002-approval-messages', APPROVALS_001);
}
