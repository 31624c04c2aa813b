/**
 * Version 1: what the Slack front end keeps (`SlackStores`, src/slack/store/stores.ts), as in SQLite
 * (../../sqlite/slack-schema.ts); the statements are Slack's own, in src/slack/store/postgres/.
 * `pages_json` and `args_json` are `json` since version 6 (./json-columns.ts).
 * Times the front end computes stay milliseconds since the epoch; the two claim columns are
 * `timestamptz` compared with the database's clock, so replicas whose clocks differ agree on when
 * a claim ran out. The outbox has an ordering key: messages of one key go out in order, one at a
 * time, while other keys proceed (`''` is the default lane, in the order of the SQLite outbox).
 */
export const SLACK_V1: readonly string[] = [
  `CREATE TABLE slack_seen_events (
     event_id text PRIMARY KEY,
     seen_at bigint NOT NULL
   )`,
  `CREATE TABLE slack_pages (
     id text PRIMARY KEY,
     user_id text NOT NULL,
     tool text NOT NULL,
     pages_json text NOT NULL,
     shareable boolean NOT NULL,
     created_at bigint NOT NULL
   )`,
  `CREATE TABLE service_deliveries (
     event_id text NOT NULL,
     event_name text NOT NULL,
     received_at bigint NOT NULL,
     PRIMARY KEY (event_id, event_name)
   )`,
  `CREATE TABLE slack_outbox (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     ordering_key text NOT NULL DEFAULT '',
     dedupe_key text UNIQUE,
     method text NOT NULL,
     args_json text NOT NULL,
     created_at bigint NOT NULL,
     attempts integer NOT NULL DEFAULT 0,
     next_at bigint NOT NULL,
     lease_until timestamptz NOT NULL DEFAULT '-infinity',
     done_at bigint,
     error text
   )`,
  'CREATE INDEX slack_outbox_pending ON slack_outbox (ordering_key, id) WHERE done_at IS NULL',
  `CREATE TABLE slack_approval_messages (
     approval_id text PRIMARY KEY,
     channel text NOT NULL,
     ts text,
     claimed_until timestamptz NOT NULL,
     posted_at bigint,
     rendered text
   )`,
];
