import type { Storage } from './index.js';
import { releaseHeldBy, threadLockOf } from './sqlite/thread-lock.js';

/** The database the audit writer's thread opens a connection of its own to (cloneable). */
export type ThreadTarget =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; applicationName: string };

/** What the thread is started with: its target, and on SQLite the file's lock between threads. */
export type ThreadData = ThreadTarget & { threadLock?: SharedArrayBuffer };

/** The storage a thread opened on its own connection. */
export interface ThreadStorage {
  storage: Storage;
  /**
   * Whether a commit returns once on disk (SQLite, a durable batch's `synchronous = FULL`), or
   * its `onDisk` must be waited for (PostgreSQL's flush barrier).
   */
  commitIsDurable: boolean;
  close(): Promise<void>;
}

/**
 * A thread about to start on `target`: what to hand it, and what to do once it ended. On SQLite the
 * thread shares the file's lock between this process's threads: a thread that stops holding it
 * (killed mid-commit) frees it, as its connection's end frees SQLite's.
 */
export function threadStart(target: ThreadTarget): { data: ThreadData; exited(threadId: number): void } {
  if (target.kind !== 'sqlite') return { data: target, exited: () => undefined };
  const threadLock = threadLockOf(target.file).buffer;
  return { data: { ...target, threadLock }, exited: (threadId) => releaseHeldBy(threadLock, threadId) };
}

/** In the thread: its own connection to the target, the backend's module loaded only now. */
export async function openInThread(data: ThreadData): Promise<ThreadStorage> {
  if (data.kind === 'sqlite') {
    const { openSqliteInThread } = await import('./sqlite/thread.js');
    return openSqliteInThread(data.file, data.threadLock);
  }
  const { openPostgresInThread } = await import('./postgres/thread.js');
  return openPostgresInThread(data.url, data.applicationName);
}
