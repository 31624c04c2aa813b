import type pg from 'pg';

/**
 * Transaction-level advisory locks (`pg_advisory_xact_lock`): released at COMMIT or ROLLBACK, so a
 * pooled connection never keeps one. Keys are fixed numbers, one per purpose.
 */
export const LockKey = {
  /** Applying migrations: one replica at a time. */
  Migrate: 0x62616e6b01,
  /** Appending to the audit chain: one appender at a time, across replicas. */
  Audit: 0x62616e6b02,
  /** A write transaction of the core's storage: one at a time, across replicas (../storage.ts). */
  Storage: 0x62616e6b03,
} as const;
export type LockKey = (typeof LockKey)[keyof typeof LockKey];

/** Waits for the lock; it is held until the caller's transaction ends. */
export async function lockForTransaction(client: pg.ClientBase, key: LockKey): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [key]);
}
