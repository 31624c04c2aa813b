import type { WebhookKeyStore } from '../../webhooks.js';
import type { PgStore } from './pool.js';
import { statement } from './statement.js';

/** The webhook keys' digests in PostgreSQL; the table is made by `migrate`. */
export function postgresWebhookKeys(store: PgStore): WebhookKeyStore {
  return {
    add: async (digest, target) => {
      await statement(
        store,
        `INSERT INTO service_webhook_keys (key_digest, event_name, channel_id, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [digest, target.eventName, target.channel, target.createdBy, Date.now()],
      );
    },
    keepOnly: async (eventName, digest) => {
      await statement(store, 'DELETE FROM service_webhook_keys WHERE event_name = $1 AND key_digest <> $2', [
        eventName,
        digest,
      ]);
    },
    remove: async (digest) => {
      await statement(store, 'DELETE FROM service_webhook_keys WHERE key_digest = $1', [digest]);
    },
    forgetEvent: async (eventName) => {
      await statement(store, 'DELETE FROM service_webhook_keys WHERE event_name = $1', [eventName]);
    },
    all: async () => {
      const found = await statement<{ key_digest: string; event_name: string; channel_id: string }>(
        store,
        'SELECT key_digest, event_name, channel_id FROM service_webhook_keys',
      );
      return found.rows.map((row) => ({
        digest: row.key_digest,
        eventName: row.event_name,
        channel: row.channel_id,
      }));
    },
  };
}
