import type { ThreadStorage } from '../thread.js';
import { openDatabase } from './database.js';
import { sqliteStorage } from './storage.js';
import { adoptThreadLock, THREAD_WAIT_MS, threadLockOf } from './thread-lock.js';

/**
 * The audit writer thread's own connection to the file. The file's lock between this process's
 * threads, shared with the thread that started this one, is held while the connection opens: its
 * migrations write (each checks in `BEGIN IMMEDIATE`).
 */
export async function openSqliteInThread(
  file: string,
  threadLock?: SharedArrayBuffer,
): Promise<ThreadStorage> {
  let release: (() => void) | undefined;
  if (threadLock !== undefined) {
    adoptThreadLock(file, threadLock);
    release = await threadLockOf(file).acquire(THREAD_WAIT_MS);
  }
  try {
    const db = openDatabase(file);
    return {
      storage: sqliteStorage(db),
      commitIsDurable: true,
      close: async () => {
        db.close();
      },
    };
  } finally {
    release?.();
  }
}
