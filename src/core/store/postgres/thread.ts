import type { ThreadStorage } from '../thread.js';
import { createPgPool } from './pool.js';
import { postgresStorage } from './storage.js';

/**
 * The audit writer thread's own pool: two connections, one commit at a time and a durable batch's
 * WAL barrier beside the next one.
 */
export async function openPostgresInThread(url: string, applicationName: string): Promise<ThreadStorage> {
  const store = createPgPool(url, { applicationName, max: 2 });
  return { storage: postgresStorage(store), commitIsDurable: false, close: () => store.pool.end() };
}
