// The audit writer's thread (./thread-writer.ts starts it): its own connection to the database,
// over which it validates, serializes, chains and commits the batches the group commit hands it.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db.js';
import { internalError } from '../errors.js';
import type { Storage } from '../store/index.js';
import { createPgPool } from '../store/postgres/pool.js';
import { postgresStorage } from '../store/postgres/storage.js';
import { sqliteStorage } from '../store/sqlite/storage.js';
import { adoptThreadLock, THREAD_WAIT_MS, threadLockOf } from '../store/sqlite/thread-lock.js';
import { toWire } from './wire-error.js';
import { inlineWriter, type Pending, type WriteOptions } from './writer.js';
import type { FromWriter, ToWriter, WriterData } from './writer-messages.js';

async function open(target: WriterData): Promise<{ storage: Storage; close: () => Promise<void> }> {
  if (target.kind === 'sqlite') {
    // The file's lock between this process's threads, shared with the thread that started this one,
    // held while the connection opens: its migrations write (each checks in `BEGIN IMMEDIATE`).
    let release: (() => void) | undefined;
    if (target.threadLock !== undefined) {
      adoptThreadLock(target.file, target.threadLock);
      release = await threadLockOf(target.file).acquire(THREAD_WAIT_MS);
    }
    try {
      const db = openDatabase(target.file);
      const storage = sqliteStorage(db);
      return {
        storage,
        close: async () => {
          db.close();
        },
      };
    } finally {
      release?.();
    }
  }
  // Two connections: one commit at a time, and a durable batch's WAL barrier beside the next one.
  const store = createPgPool(target.url, { applicationName: target.applicationName, max: 2 });
  return { storage: postgresStorage(store), close: () => store.pool.end() };
}

const port = parentPort;
if (port === null) throw internalError('the audit writer runs as a worker thread');
const send = (message: FromWriter): void => port.postMessage(message);

const target = workerData as WriterData;
const opened = await open(target);
const writer = inlineWriter(opened.storage);
/**
 * Whether a batch is as durable as it will be once committed: SQLite's commit returns once on disk
 * (a durable batch's `synchronous = FULL`), and a relaxed batch is never waited for on either.
 */
const onDiskOnCommit = (options: WriteOptions): boolean => target.kind === 'sqlite' || !options.durable;

async function commit(id: number, batch: readonly Pending[], options: WriteOptions): Promise<void> {
  try {
    const committed = await writer.commit(batch, options);
    const told = committed.of === 'unsure' ? (options.unsure ?? []) : batch;
    // A noted entry's caller does not wait for it: that it was written is all that goes back.
    const results = committed.results.map((result, i) => {
      if ('refused' in result) return { refused: toWire(result.refused) };
      if ('noted' in result || told[i]?.noted) return null;
      return result;
    });
    // Said on disk in the same message only once it is: a batch that committed is never said failed.
    const onDisk =
      onDiskOnCommit(options) &&
      (await committed.onDisk.then(
        () => true,
        () => false,
      ));
    send({ type: 'committed', id, of: committed.of, results, ...(onDisk ? { onDisk: true as const } : {}) });
    if (onDisk) return;
    // Awaited here, so the connection closes only once the batch is on disk (or known not to be).
    await committed.onDisk.then(
      () => send({ type: 'disk', id }),
      (error: unknown) => send({ type: 'disk', id, error: toWire(error) }),
    );
  } catch (error) {
    send({ type: 'failed', id, error: toWire(error) });
  }
}

/** Commits under way: the connection closes after them, never in the middle of one. */
const running = new Set<Promise<void>>();

port.on('message', (message: ToWriter) => {
  if (message.type === 'commit') {
    const done = commit(message.id, message.batch, message.options);
    running.add(done);
    void done.finally(() => running.delete(done));
    return;
  }
  void Promise.allSettled([...running])
    .then(() => opened.close())
    .finally(() => port.close());
});
send({ type: 'ready' });
