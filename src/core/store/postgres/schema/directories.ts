/**
 * Version 1: the smaller stores, as in SQLite (each module of ../../sqlite/ named after its store):
 * payees, cards and webhook keys (the directories; statements in ../payees.ts, ../cards.ts,
 * ../webhook-keys.ts), direct runs with idempotency keys (../core/executions.ts) and passkeys with
 * their one-time links (../core/passkeys.ts; SQLite's schema in ../../sqlite/passkeys-schema.ts).
 * The JSON columns are `json` since version 6 (./json-columns.ts).
 */
export const DIRECTORIES_V1: readonly string[] = [
  `CREATE TABLE payees (
     id text PRIMARY KEY,
     record_json text NOT NULL,
     updated_at text NOT NULL
   )`,
  `CREATE TABLE cards (
     card_id text PRIMARY KEY,
     cardholder_id text NOT NULL,
     wallet_id text NOT NULL,
     last_four text,
     seen_at bigint NOT NULL
   )`,
  `CREATE TABLE service_webhook_keys (
     key_digest text PRIMARY KEY,
     event_name text NOT NULL,
     channel_id text NOT NULL,
     created_by text NOT NULL,
     created_at bigint NOT NULL
   )`,
  `CREATE TABLE executions (
     actor text NOT NULL,
     tool text NOT NULL,
     idempotency_key text NOT NULL,
     fingerprint text NOT NULL,
     request_id text NOT NULL,
     result_json text,
     created_at text NOT NULL,
     PRIMARY KEY (actor, tool, idempotency_key)
   )`,
  `CREATE TABLE passkeys (
     credential_id text PRIMARY KEY,
     person text NOT NULL,
     name text NOT NULL,
     public_key text NOT NULL,
     counter bigint NOT NULL,
     transports text NOT NULL DEFAULT '[]',
     created_at text NOT NULL,
     last_used_at text,
     revoked_at text
   )`,
  'CREATE UNIQUE INDEX passkeys_active_name ON passkeys (person, name) WHERE revoked_at IS NULL',
  `CREATE TABLE passkey_links (
     digest text PRIMARY KEY,
     purpose text NOT NULL CHECK (purpose IN ('enroll', 'approve')),
     person text NOT NULL,
     actor_json text NOT NULL,
     approval_id text,
     created_at text NOT NULL,
     expires_at text NOT NULL,
     challenge text,
     used_at text
   )`,
  'CREATE INDEX passkey_links_expiry ON passkey_links (expires_at)',
];
