import type { WebhookKeyStore } from '../../webhooks.js';
import { type Db, migrate } from './database.js';
import { underFileLock } from './file-lock.js';

/** The webhook keys' digests in the SQLite database. */
export function sqliteWebhookKeys(db: Db): WebhookKeyStore {
  // The same table the Slack front end made before the keys moved to the core: created only if missing.
  migrate(db, 'webhook-keys-1', [
    `CREATE TABLE IF NOT EXISTS service_webhook_keys (
       key_digest TEXT PRIMARY KEY,
       event_name TEXT NOT NULL,
       channel_id TEXT NOT NULL,
       created_by TEXT NOT NULL,
       created_at INTEGER NOT NULL
     ) STRICT`,
  ]);
  const insert = db.prepare(
    `INSERT INTO service_webhook_keys (key_digest, event_name, channel_id, created_by, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const deleteOthers = db.prepare(
    'DELETE FROM service_webhook_keys WHERE event_name = ? AND key_digest != ?',
  );
  const deleteOne = db.prepare('DELETE FROM service_webhook_keys WHERE key_digest = ?');
  const deleteEvent = db.prepare('DELETE FROM service_webhook_keys WHERE event_name = ?');
  const all = db.prepare('SELECT key_digest, event_name, channel_id FROM service_webhook_keys');
  return {
    add: async (digest, target) => {
      await underFileLock(db, () =>
        insert.run(digest, target.eventName, target.channel, target.createdBy, Date.now()),
      );
    },
    keepOnly: async (eventName, digest) => {
      await underFileLock(db, () => deleteOthers.run(eventName, digest));
    },
    remove: async (digest) => {
      await underFileLock(db, () => deleteOne.run(digest));
    },
    forgetEvent: async (eventName) => {
      await underFileLock(db, () => deleteEvent.run(eventName));
    },
    all: async () =>
      (all.all() as { key_digest: string; event_name: string; channel_id: string }[]).map((row) => ({
        digest: row.key_digest,
        eventName: row.event_name,
        channel: row.channel_id,
      })),
  };
}
