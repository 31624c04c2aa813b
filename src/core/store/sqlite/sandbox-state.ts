import { Mutex } from '../mutex.js';
import { type Db, migrate } from './database.js';

/**
 * Where the embedded sandbox keeps its state between commands (the sandbox's `SandboxPersistence`):
 * the newest state saved after `sinceRevision`, if any; a save returns its revision.
 */
export interface SandboxStateStore {
  load(sinceRevision: number): { revision: number; state: Buffer } | undefined;
  save(state: Buffer): number;
  /**
   * Runs `work` (a load, a change, a save) as the state's only writer: no other process or request
   * saves between its load and its save, so neither loses the other's change.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Keeps the embedded sandbox's state in the bankops database, so the sandbox behind one CLI command
 * continues where the previous command left it. Each save bumps a revision; a process reloads when
 * another one saved a newer revision.
 */
export function sqliteSandboxStore(db: Db): SandboxStateStore {
  migrate(db, 'sandbox-state-1', [
    `CREATE TABLE IF NOT EXISTS sandbox_state (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       revision INTEGER NOT NULL,
       state BLOB NOT NULL,
       updated_at TEXT NOT NULL
     )`,
  ]);
  const read = db.prepare('SELECT revision, state FROM sandbox_state WHERE id = 1 AND revision > ?');
  const write = db.prepare(
    `INSERT INTO sandbox_state (id, revision, state, updated_at) VALUES (1, 1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET revision = revision + 1, state = excluded.state, updated_at = excluded.updated_at
     RETURNING revision`,
  );
  // One writer at a time in this process (requests interleave at their awaits), and across
  // processes SQLite's write lock, taken at BEGIN IMMEDIATE (a second process waits busy_timeout).
  // The transaction is for the lock, not to undo: what `work` saved stands even when it then fails
  // (a fault used up, then the request refused), as it did without the lock.
  const writers = new Mutex();
  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    const release = await writers.lock();
    try {
      db.exec('BEGIN IMMEDIATE');
      try {
        return await work();
      } finally {
        db.exec('COMMIT');
      }
    } finally {
      release();
    }
  };
  return {
    load: (sinceRevision) => read.get(sinceRevision) as { revision: number; state: Buffer } | undefined,
    save: (state) => (write.get(state, new Date().toISOString()) as { revision: number }).revision,
    exclusive,
  };
}
